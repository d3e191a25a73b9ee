// Hash routes and polling: #/orders/{id} and the like pick a page, which loads its data now and again
// every POLL_MS while the tab is visible. The pages are given by the entry module (configure), so that
// no page module is imported from here.
import {$, h} from './dom.js';
import {ApiError, problemText} from './api.js';
import {signedIn} from './session.js';

const POLL_MS = 2000;
const EXPIRED = 'The server no longer accepts these credentials; sign in again.';

let PAGES = {}; // route name → function (route, root) → the page's frame
let signOut = () => {};
let view = null;
let timer = null;
let tick = 0;

/** The pages by route name, and how to sign out (when the server no longer accepts the credentials). */
export function configure(pages, signOutWith) {
    PAGES = pages;
    signOut = signOutWith;
}

/** Signs out because the server answered 401 to credentials it used to accept. */
export function expired() {
    signOut(EXPIRED);
}

/** The page on screen (its frame), or null. */
export const currentView = () => view;

function route() {
    const raw = location.hash.replace(/^#\/?/, '');
    const cut = raw.indexOf('?');
    const path = cut < 0 ? raw : raw.slice(0, cut);
    const params = new URLSearchParams(cut < 0 ? '' : raw.slice(cut + 1));
    let parts;
    try {
        parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    } catch (e) {
        parts = [];
    }
    if (parts[0] === 'orders' && parts[1]) {
        return {page: 'order', id: parts[1], params};
    }
    if (parts[0] === 'bulk' && parts[1]) {
        return {page: 'bulkJob', id: parts[1], params};
    }
    if (parts[0] === 'workflows' && parts[1]) {
        return {page: 'workflows', name: parts[1], params};
    }
    return {page: PAGES[parts[0]] ? parts[0] : 'overview', params};
}

export function show() {
    if (!signedIn()) {
        return;
    }
    stop();
    const r = route();
    const root = $('#page');
    root.replaceChildren();
    view = PAGES[r.page](r, root);
    document.title = view.title + ' · Overseer console';
    for (const link of document.querySelectorAll('#nav a')) {
        const here = link.dataset.route === ({order: 'orders', bulkJob: 'bulk'}[r.page] || r.page);
        link.classList.toggle('here', here);
        link.toggleAttribute('aria-current', here);
    }
    refresh();
}

export function stop() {
    clearTimeout(timer);
    view = null;
    tick++;
}

/** Polling stops while the tab is hidden and resumes, at once, when it is shown again. */
export function pauseWhileHidden() {
    if (document.hidden) {
        clearTimeout(timer);
    } else {
        refresh();
    }
}

/** Loads the page's data now and again every POLL_MS; a newer load makes an older one's answer moot. */
export async function refresh() {
    clearTimeout(timer);
    const mine = ++tick;
    const current = view;
    if (!current || document.hidden) {
        return;
    }
    try {
        const data = await current.load();
        if (mine !== tick) {
            return;
        }
        current.render(data);
        current.status(null);
    } catch (error) {
        if (mine !== tick) {
            return;
        }
        if (error instanceof ApiError && error.status === 401) {
            expired();
            return;
        }
        current.status(problemText(error));
    }
    if (mine === tick && !document.hidden) {
        timer = setTimeout(refresh, POLL_MS);
    }
}

/**
 * A page's frame: heading, the outcome of the last action, the refresh status, and a body that each
 * poll redraws. Forms that must keep what the user typed live outside the body.
 */
export function frame(root, title, load, draw) {
    const notice = h('p', {class: 'notice', role: 'status', hidden: true});
    const stamp = h('span', {id: 'updated', class: 'muted'});
    const trouble = h('p', {class: 'problem', id: 'load-problem', role: 'alert', hidden: true});
    const top = h('div', {class: 'page-head'}, h('h1', null, title), stamp);
    const extra = h('div', {class: 'extra'});
    const body = h('div', {class: 'body'});
    root.append(top, notice, trouble, extra, body);
    return {
        title,
        extra,
        load,
        render(data) {
            body.replaceChildren(...[draw(data)].flat(Infinity).filter(Boolean));
            stamp.textContent = 'updated ' + new Date().toISOString().slice(11, 19) + ' UTC';
        },
        status(text) {
            trouble.textContent = text ? 'Could not refresh: ' + text : '';
            trouble.hidden = !text;
        },
        notify(text, bad) {
            notice.textContent = text;
            notice.classList.toggle('bad', Boolean(bad));
            notice.hidden = !text;
        },
    };
}
