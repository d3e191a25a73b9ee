// The operator console: one page over the admin API (docs/console.md), hash routes, each page polling
// its endpoint every 2 s while the tab is visible. Plain ES2020 modules, loaded by the browser as they are
// (no build step, no framework): lib/ holds what every page uses, pages/ one module per route.
//
// Safety rules every module keeps: every string from the server reaches the page as a text node or an
// attribute value (never parsed as markup); links are built from our own routes with encodeURIComponent, and
// the one link the server names (the Artemis console) is taken only if it is http(s). Credentials live
// in sessionStorage (gone with the tab), travel in an Authorization header the page sets itself, and
// fetch runs with credentials 'omit', so the browser neither adds remembered ones nor prompts for them.
import {wireActionDialog} from './lib/actions.js';
import {$} from './lib/dom.js';
import {loginProblem, signIn, signOut, start} from './lib/login.js';
import {configure, pauseWhileHidden, show} from './lib/router.js';
import {loadSession} from './lib/session.js';
import {audit} from './pages/audit.js';
import {bulk, bulkJob} from './pages/bulk.js';
import {instances} from './pages/instances.js';
import {order} from './pages/order.js';
import {orders} from './pages/orders.js';
import {overview} from './pages/overview.js';
import {pauses} from './pages/pauses.js';
import {queues} from './pages/queues.js';
import {schedules} from './pages/schedules.js';
import {workflows} from './pages/workflows.js';

const PAGES = {overview, orders, order, queues, pauses, schedules, instances, audit, bulk, bulkJob, workflows};

// A module runs after the document is parsed and before DOMContentLoaded.
document.addEventListener('DOMContentLoaded', () => {
    configure(PAGES, signOut);
    $('#login-form').addEventListener('submit', signIn);
    $('#sign-out').addEventListener('click', () => signOut('Signed out.'));
    wireActionDialog();
    window.addEventListener('hashchange', show);
    document.addEventListener('visibilitychange', pauseWhileHidden);
    const saved = loadSession();
    if (!saved) {
        signOut();
        return;
    }
    start(saved.name, saved.header).catch((error) => signOut(loginProblem(error)));
});
