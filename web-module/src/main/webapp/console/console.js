// The operator console: one page over the admin API (docs/console.md), hash routes, each page polling
// its endpoint every 2 s while the tab is visible. Plain ES2020, no framework.
//
// Safety rules this file keeps: every string from the server reaches the page as a text node or an
// attribute value (never parsed as markup); links are built from our own routes with encodeURIComponent, and
// the one link the server names (the Artemis console) is taken only if it is http(s). Credentials live
// in sessionStorage (gone with the tab), travel in an Authorization header the page sets itself, and
// fetch runs with credentials 'omit', so the browser neither adds remembered ones nor prompts for them.
'use strict';

(() => {
    const API = new URL('../api/admin/', document.baseURI);
    const AUTH_KEY = 'overseer.console.session';
    const POLL_MS = 2000;
    const STATES = ['Pending', 'Processing', 'Processed', 'Compensating', 'Compensated', 'Error'];
    const PAGE_SIZE = 25;

    // ---------------------------------------------------------------- DOM helpers

    const $ = (selector) => document.querySelector(selector);

    function h(tag, attrs, ...children) {
        const el = document.createElement(tag);
        setAttrs(el, attrs);
        appendAll(el, children);
        return el;
    }

    function s(tag, attrs, ...children) {
        const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
        setAttrs(el, attrs);
        appendAll(el, children);
        return el;
    }

    function setAttrs(el, attrs) {
        for (const [key, value] of Object.entries(attrs || {})) {
            if (value === null || value === undefined || value === false) {
                continue;
            }
            if (key === 'on') {
                for (const [event, handler] of Object.entries(value)) {
                    el.addEventListener(event, handler);
                }
            } else {
                el.setAttribute(key, value === true ? '' : String(value));
            }
        }
    }

    /** Appends nodes and strings; a string always becomes a text node. */
    function appendAll(el, children) {
        for (const child of children.flat(Infinity)) {
            if (child === null || child === undefined || child === false) {
                continue;
            }
            el.append(child instanceof Node ? child : document.createTextNode(String(child)));
        }
    }

    function orderLink(orderId, text) {
        return h('a', {href: '#/orders/' + encodeURIComponent(orderId), class: 'mono'}, text || short(orderId));
    }

    function short(id) {
        const text = String(id ?? '');
        return text.length > 13 ? text.slice(0, 8) + '…' : text;
    }

    function badge(state) {
        return h('span', {class: 'badge state-' + String(state ?? 'none').replace(/[^A-Za-z]/g, '')}, state ?? '—');
    }

    function table(id, headings, rows, empty) {
        if (!rows.length) {
            return h('p', {class: 'muted', id: id ? id + '-empty' : null}, empty);
        }
        // a heading is aligned as its column's cells are (numbers to the right)
        const cells = rows[0].children;
        return h('div', {class: 'scroll'},
            h('table', {id},
                h('thead', null, h('tr', null, headings.map((title, i) =>
                    h('th', {scope: 'col', class: cells[i] && cells[i].classList.contains('num') ? 'num' : null}, title)))),
                h('tbody', null, rows)));
    }

    function section(title, ...content) {
        return h('section', {class: 'card'}, h('h2', null, title), content);
    }

    function definitions(pairs, wide) {
        return h('dl', {class: wide ? 'pairs wide' : 'pairs'}, pairs.filter(Boolean).map(([term, value, attrs]) =>
            [h('dt', null, term), h('dd', attrs || null, value === null || value === undefined || value === '' ? '—' : value)]));
    }

    // ---------------------------------------------------------------- formatting

    /** UTC, as the API gives it: today's times as hh:mm:ss, older ones with their date. */
    function time(iso) {
        if (!iso) {
            return '—';
        }
        const date = new Date(iso);
        if (Number.isNaN(date.getTime())) {
            return String(iso);
        }
        const text = date.toISOString();
        const today = new Date().toISOString().slice(0, 10);
        return text.slice(0, 10) === today ? text.slice(11, 19) : text.slice(0, 10) + ' ' + text.slice(11, 16);
    }

    function timeCell(iso) {
        return h('td', {title: iso || null, class: 'nowrap'}, time(iso));
    }

    function duration(seconds) {
        const total = Math.max(0, Math.round(Number(seconds) || 0));
        if (total < 60) {
            return total + ' s';
        }
        if (total < 3600) {
            return Math.floor(total / 60) + ' min ' + (total % 60) + ' s';
        }
        return Math.floor(total / 3600) + ' h ' + Math.floor((total % 3600) / 60) + ' min';
    }

    // ---------------------------------------------------------------- session and API

    let me = null; // {name, header, roles}

    const isOperator = () => Boolean(me && me.roles.includes('operator'));

    function basic(user, password) {
        const bytes = new TextEncoder().encode(user + ':' + password);
        let binary = '';
        bytes.forEach((b) => { binary += String.fromCharCode(b); });
        return 'Basic ' + btoa(binary);
    }

    class ApiError extends Error {
        constructor(status, problem) {
            super('HTTP ' + status);
            this.status = status;
            this.problem = problem;
        }
    }

    async function call(path, {method = 'GET', body, header = me && me.header, contentType} = {}) {
        const headers = {Accept: 'application/json, application/problem+json'};
        if (header) {
            headers.Authorization = header;
        }
        const init = {method, headers, credentials: 'omit', cache: 'no-store', redirect: 'error'};
        if (body !== undefined) {
            headers['Content-Type'] = contentType || 'application/json';
            init.body = typeof body === 'string' ? body : JSON.stringify(body);
        }
        const response = await fetch(new URL(path, API), init);
        const text = await response.text();
        let json = null;
        try {
            json = text ? JSON.parse(text) : null;
        } catch (e) {
            json = null;
        }
        if (!response.ok) {
            throw new ApiError(response.status, json);
        }
        return json;
    }

    /** What went wrong, in the server's words (RFC 9457 detail, else title) when it gave any. */
    function problemText(error) {
        if (error instanceof ApiError) {
            const problem = error.problem || {};
            const words = problem.detail || problem.title;
            return words ? String(words) : 'The server answered ' + error.status + '.';
        }
        // fetch rejects with a TypeError when no answer came at all
        return error instanceof TypeError ? 'The server cannot be reached: ' + error.message : error.message;
    }

    /** Who the caller is, and with which of the console's roles (GET whoami). */
    async function identify(name, header) {
        const who = await call('whoami', {header});
        return {name: who.name || name, roles: Array.isArray(who.roles) ? who.roles : []};
    }

    function saveSession() {
        sessionStorage.setItem(AUTH_KEY, JSON.stringify({name: me.name, header: me.header}));
    }

    function loadSession() {
        try {
            const saved = JSON.parse(sessionStorage.getItem(AUTH_KEY));
            return saved && typeof saved.header === 'string' ? saved : null;
        } catch (e) {
            return null;
        }
    }

    async function signIn(event) {
        event.preventDefault();
        const user = $('#login-user').value;
        const header = basic(user, $('#login-password').value);
        showLoginProblem(null);
        $('#login-submit').disabled = true;
        try {
            await start(user, header);
        } catch (error) {
            showLoginProblem(loginProblem(error));
        } finally {
            $('#login-submit').disabled = false;
        }
    }

    function loginProblem(error) {
        if (error instanceof ApiError && error.status === 401) {
            return 'Wrong user name or password.';
        }
        if (error instanceof ApiError && error.status === 403) {
            return 'This user may not use the console: it needs the viewer or the operator role.';
        }
        return problemText(error);
    }

    async function start(name, header) {
        const who = await identify(name, header);
        if (!who.roles.includes('viewer') && !who.roles.includes('operator')) {
            throw new ApiError(403, null);
        }
        me = {name: who.name, header, roles: who.roles};
        saveSession();
        $('#login-password').value = '';
        $('#login').hidden = true;
        $('#page').hidden = false;
        $('#nav').hidden = false;
        $('#who').hidden = false;
        $('#who-name').textContent = me.name;
        $('#who-role').textContent = isOperator() ? 'operator' : 'viewer';
        show();
    }

    function signOut(message) {
        sessionStorage.removeItem(AUTH_KEY);
        me = null;
        stop();
        $('#page').replaceChildren();
        $('#page').hidden = true;
        $('#nav').hidden = true;
        $('#who').hidden = true;
        $('#login').hidden = false;
        showLoginProblem(typeof message === 'string' ? message : null);
        $('#login-user').focus();
    }

    function showLoginProblem(text) {
        const p = $('#login-problem');
        p.textContent = text || '';
        p.hidden = !text;
    }

    // ---------------------------------------------------------------- routing and polling

    let view = null;
    let timer = null;
    let tick = 0;

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

    function show() {
        if (!me) {
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

    function stop() {
        clearTimeout(timer);
        view = null;
        tick++;
    }

    /** Loads the page's data now and again every POLL_MS; a newer load makes an older one's answer moot. */
    async function refresh() {
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
                signOut('The server no longer accepts these credentials; sign in again.');
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
    function frame(root, title, load, draw) {
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

    // ---------------------------------------------------------------- actions

    let pending = null; // the action the dialog is asking a reason for

    /** An operator's button; for anyone else nothing at all, so a viewer's page has no action in it. */
    function actionButton(label, action, ask) {
        if (!isOperator()) {
            return null;
        }
        return h('button', {type: 'button', class: 'action', 'data-action': action, on: {click: () => askReason(ask)}}, label);
    }

    /**
     * ask: {title, what, post(reason) → promise of the answer, done(answer) → text for the page}.
     * The dialog stays open on a refusal, showing the problem's detail, so the operator may fix the reason.
     */
    function askReason(ask) {
        pending = {ask, page: view};
        $('#action-title').textContent = ask.title;
        $('#action-what').textContent = ask.what || '';
        $('#action-sample').replaceChildren(...(ask.sample || []).map((line) => h('li', {class: 'mono small'}, line)));
        $('#action-sample').hidden = !(ask.sample || []).length;
        $('#action-everything-box').hidden = !ask.everything;
        $('#action-everything').checked = false;
        $('#action-reason').value = '';
        const problem = $('#action-problem');
        problem.hidden = true;
        problem.textContent = '';
        $('#action-submit').disabled = false;
        $('#action-dialog').showModal();
        $('#action-reason').focus();
    }

    async function confirmAction(event) {
        event.preventDefault();
        if (!pending) {
            return;
        }
        const {ask, page} = pending;
        const reason = $('#action-reason').value.trim();
        const problem = $('#action-problem');
        if (!reason) {
            problem.textContent = 'Say why: a reason is required.';
            problem.hidden = false;
            return;
        }
        if (ask.everything && !$('#action-everything').checked) {
            problem.textContent = 'Nothing is filtered: tick the box to act on every one, or go back and filter.';
            problem.hidden = false;
            return;
        }
        $('#action-submit').disabled = true;
        try {
            const answer = await ask.post(reason, Boolean(ask.everything));
            pending = null;
            $('#action-dialog').close();
            if (page === view) {
                page.notify(ask.done(answer || {}));
                refresh();
            }
        } catch (error) {
            if (error instanceof ApiError && error.status === 401) {
                $('#action-dialog').close();
                signOut('The server no longer accepts these credentials; sign in again.');
                return;
            }
            problem.textContent = problemText(error);
            problem.hidden = false;
            $('#action-submit').disabled = false;
        }
    }

    function post(path, body) {
        return call(path, {method: 'POST', body});
    }

    /** An order action's one URL, /api/operator/orders/{id}/{action} (docs/http-api.md), beside the admin API. */
    function orderAction(id, action) {
        return '../operator/orders/' + encodeURIComponent(id) + '/' + action;
    }

    /** The server's own words about what it did, when it said any. */
    function said(answer, fallback) {
        const words = answer && (answer.detail || answer.message || answer.outcome);
        return words ? fallback + ': ' + words : fallback + '.';
    }

    // ---------------------------------------------------------------- charts (inline SVG)

    /** Finished and failed orders per minute over the hour up to `at`: bars, and the failures as a line. */
    function hourChart(lastHour, at) {
        const end = Math.floor(new Date(at || Date.now()).getTime() / 60000) * 60000;
        const byMinute = new Map();
        for (const m of lastHour || []) {
            byMinute.set(Math.floor(new Date(m.minute).getTime() / 60000) * 60000, m);
        }
        const minutes = [];
        for (let i = 59; i >= 0; i--) {
            const t = end - i * 60000;
            const m = byMinute.get(t) || {};
            minutes.push({t, processed: Number(m.processed) || 0, failed: Number(m.failed) || 0});
        }
        const max = Math.max(1, ...minutes.map((m) => Math.max(m.processed, m.failed)));
        const W = 600, H = 160, left = 34, bottom = 20, top = 8;
        const plotH = H - bottom - top;
        const step = (W - left) / minutes.length;
        const y = (v) => top + plotH - (v / max) * plotH;
        const chart = s('svg', {viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img',
            'aria-label': 'Orders finished and failed per minute, last hour'});
        chart.append(
            s('line', {x1: left, y1: y(0), x2: W, y2: y(0), class: 'axis'}),
            s('line', {x1: left, y1: y(max), x2: W, y2: y(max), class: 'gridline'}),
            s('text', {x: left - 4, y: y(max) + 4, class: 'tick end'}, String(max)),
            s('text', {x: left - 4, y: y(0) + 4, class: 'tick end'}, '0'),
            s('text', {x: left, y: H - 4, class: 'tick'}, new Date(minutes[0].t).toISOString().slice(11, 16)),
            s('text', {x: W, y: H - 4, class: 'tick end'}, new Date(end).toISOString().slice(11, 16) + ' UTC'));
        minutes.forEach((m, i) => {
            const x = left + i * step;
            chart.append(s('rect', {x: x + 1, y: y(m.processed), width: Math.max(1, step - 2),
                height: y(0) - y(m.processed), class: 'bar'},
                s('title', null, `${new Date(m.t).toISOString().slice(11, 16)}: ${m.processed} finished, ${m.failed} failed`)));
        });
        const points = minutes.map((m, i) => `${(left + i * step + step / 2).toFixed(1)},${y(m.failed).toFixed(1)}`);
        chart.append(s('polyline', {points: points.join(' '), class: 'failures'}));
        const total = minutes.reduce((sum, m) => sum + m.processed, 0);
        const failed = minutes.reduce((sum, m) => sum + m.failed, 0);
        return h('figure', {class: 'figure'}, chart,
            h('figcaption', null, h('span', {class: 'key bar-key'}), ` ${total} finished  `,
                h('span', {class: 'key line-key'}), ` ${failed} failed (last hour, per minute)`));
    }

    // ---------------------------------------------------------------- pages

    let brokerConsole; // from the overview, for the queues page

    function brokerLink(url) {
        let safe = null;
        try {
            const parsed = new URL(url);
            safe = parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
        } catch (e) {
            safe = null;
        }
        return safe
            ? h('a', {href: safe, target: '_blank', rel: 'noopener noreferrer', id: 'broker-console'}, 'Artemis console')
            : h('span', {class: 'muted', id: 'broker-console'},
                'Artemis console: the broker\'s own web console (./run prints its address).');
    }

    function overview(r, root) {
        const load = () => call('overview'); // its queues are [] and an alert says why when the broker does not answer
        const page = frame(root, 'Overview', load, (o) => {
            brokerConsole = o.brokerConsole;
            const counts = o.counts || {};
            const states = STATES.concat(Object.keys(counts).filter((k) => !STATES.includes(k)));
            const pauses = o.pauses || [];
            const allPaused = pauses.some((p) => p.scope === 'all');
            return [
                h('div', {class: 'tiles', id: 'counts'}, states.map((state) =>
                    h('a', {class: 'tile state-' + state, href: '#/orders?state=' + encodeURIComponent(state),
                        'data-state': state},
                    h('span', {class: 'count'}, String(counts[state] ?? 0)), h('span', {class: 'label'}, state)))),
                h('div', {class: 'grid'},
                    section('Throughput and failures', hourChart(o.lastHour, o.at)),
                    section('Alerts', alerts(o.alerts || []))),
                h('div', {class: 'grid'},
                    section('Queue depths', queueTable(o.queues || [], true), h('p', null, brokerLink(o.brokerConsole))),
                    h('div', null, section('Oldest waiting order', o.oldestWaiting
                        ? h('p', {id: 'oldest-waiting'}, orderLink(o.oldestWaiting.orderId), ' ', badge(o.oldestWaiting.processState),
                            ' waiting ', duration(o.oldestWaiting.waitingSeconds))
                        : h('p', {class: 'muted'}, 'Nothing waits.')),
                    section('Dispatch',
                    pauses.length
                        ? h('ul', {class: 'plain', id: 'active-pauses'}, pauses.map((p) => h('li', null,
                            h('strong', null, p.scope === 'all' ? 'everything' : p.scope), ' paused by ', p.pausedBy,
                            ' at ', time(p.pausedAt), ': ', p.reason,
                            p.waiting !== undefined ? ` (${p.waiting} waiting)` : '')))
                        : h('p', {class: 'muted'}, 'Nothing is paused.'),
                    h('div', {class: 'buttons'},
                        allPaused ? actionButton('Resume everything', 'resume-all', resumeAsk('all'))
                            : actionButton('Pause everything', 'pause-all', pauseAsk('all')),
                        h('a', {href: '#/pauses'}, isOperator() ? 'Pause one operation…' : 'Pauses'))),
                    (o.flowLimits || []).length ? section('Flow limits', h('ul', {class: 'plain', id: 'flow-limits'},
                        o.flowLimits.map((f) => h('li', {'data-operation': f.operation}, h('strong', null, f.operation), ': ',
                            `${f.running} running`, f.inFlightLimit ? ` of ${f.inFlightLimit}` : '',
                            f.perSecondLimit ? `, at most ${f.perSecondLimit} starts/s` : '', `, ${f.waiting} waiting`))))
                        : null)),
            ];
        });
        return page;
    }

    function alerts(list) {
        if (!list.length) {
            return h('p', {class: 'muted', id: 'alerts-empty'}, 'No alerts.');
        }
        return h('ul', {class: 'alerts', id: 'alerts'}, list.map((a) => h('li', {class: 'severity-' + String(a.severity).replace(/\W/g, '')},
            h('span', {class: 'badge'}, a.severity || 'alert'), ' ',
            h('span', {title: a.message || null}, preview(a.message || a.kind, 240)),
            a.orderId ? [' ', orderLink(a.orderId, 'open order')] : null,
            a.kind === 'dead-letters' ? [' ', h('a', {href: '#/queues'}, 'open queues')] : null)));
    }

    function queueTable(queues, compact) {
        return table(compact ? 'queue-depths' : 'queues-table',
            compact ? ['Queue', 'Messages', 'Consumers', 'In flight'] : ['Queue', 'Messages', 'Consumers', 'In flight', 'Scheduled', 'Added'],
            queues.map((q) => h('tr', {'data-queue': q.name}, h('td', {class: 'mono'}, q.name),
                h('td', {class: 'num'}, q.messageCount), h('td', {class: 'num'}, q.consumerCount),
                h('td', {class: 'num'}, q.deliveringCount),
                compact ? null : [h('td', {class: 'num'}, q.scheduledCount), h('td', {class: 'num'}, q.messagesAdded)])),
            'No queue figures (the broker may be unreachable).');
    }

    function pauseAsk(scope) {
        const everything = scope === 'all';
        return {
            title: everything ? 'Pause everything' : 'Pause ' + scope,
            what: everything ? 'No scheduler starts any attempt until you resume; work waits, nothing fails.'
                : 'No scheduler starts an attempt calling ' + scope + ' until you resume; those orders wait.',
            post: (reason) => post('pauses', {scope, reason}),
            done: (answer) => said(answer, everything ? 'Everything is paused' : scope + ' is paused'),
        };
    }

    function resumeAsk(scope) {
        return {
            title: scope === 'all' ? 'Resume everything' : 'Resume ' + scope,
            what: 'Parked orders are announced again and continue.',
            post: (reason) => post('pauses/' + encodeURIComponent(scope) + '/resume', {reason}),
            done: (answer) => said(answer, (scope === 'all' ? 'Everything' : scope) + ' resumed'),
        };
    }

    function orders(r, root) {
        const p = r.params;
        const query = new URLSearchParams();
        for (const key of ['state', 'workflow', 'customer', 'attribute', 'minFailures']) {
            if (p.get(key)) {
                query.set(key, p.get(key));
            }
        }
        if (p.get('olderThan')) {
            query.set('olderThan', 'PT' + Math.max(0, parseInt(p.get('olderThan'), 10) || 0) + 'M');
        }
        query.set('limit', String(PAGE_SIZE));
        if (p.get('after')) {
            query.set('after', p.get('after'));
        }
        const picked = new Set(); // the operator's selected set, kept across polls
        const pick = (o) => isOperator() ? h('input', {type: 'checkbox', class: 'pick',
            'aria-label': 'select ' + o.orderId, 'data-order-id': o.orderId, checked: picked.has(o.orderId), on: {change: (event) => {
                if (event.target.checked) {
                    picked.add(o.orderId);
                } else {
                    picked.delete(o.orderId);
                }
                syncPicked();
            }}}) : null;
        const pickedCount = h('span', {id: 'bulk-picked'});
        const syncPicked = () => {
            pickedCount.textContent = picked.size ? picked.size + ' selected: the actions take these. ' : '';
        };
        const page = frame(root, 'Orders', () => call('orders?' + query), (listing) => {
            const list = listing.orders || [];
            return [
                table('orders-table', ['Order', 'Customer', 'Workflow', 'State', 'Failures', 'Paused on', 'Last error', 'Created', 'Updated'],
                    list.map((o) => h('tr', {'data-order-id': o.orderId},
                        h('td', {class: 'nowrap'}, pick(o), orderLink(o.orderId)), h('td', null, o.customerId), h('td', null, o.workflow),
                        h('td', null, badge(o.processState)), h('td', {class: 'num'}, o.failureCount),
                        h('td', null, o.pausedOn || ''), h('td', {class: 'error-text'}, o.lastError || ''),
                        timeCell(o.createdAt), timeCell(o.updatedAt))),
                    'No order matches.'),
                h('p', {class: 'pager'},
                    p.get('after') ? h('a', {href: ordersHash(p, null), id: 'first-page'}, '« First page') : null,
                    cursor(listing.next) ? h('a', {href: ordersHash(p, cursor(listing.next)), id: 'next-page'}, 'Next page »') : null),
            ];
        });
        page.extra.append(orderFilters(p));
        if (isOperator()) {
            const filter = {};
            for (const key of ['state', 'workflow', 'customer', 'attribute']) {
                if (p.get(key)) {
                    filter[key] = p.get(key);
                }
            }
            if (p.get('minFailures')) {
                filter.minFailures = parseInt(p.get('minFailures'), 10) || 0;
            }
            if (p.get('olderThan')) {
                filter.olderThan = query.get('olderThan');
            }
            const selection = () => picked.size ? {orderIds: [...picked]} : {filter};
            page.extra.append(h('div', {class: 'bulk-bar', id: 'bulk-bar'}, pickedCount,
                'Every order ' + (Object.keys(filter).length ? 'this filter matches' : 'there is (no filter)') + ': ',
                BULK_ACTIONS.map(([action, label]) => h('button', {type: 'button', class: 'secondary', 'data-bulk': action,
                    on: {click: () => startBulk(page, action, label, selection())}}, label + '…')),
                h('a', {href: '#/bulk'}, 'Bulk jobs')));
        }
        return page;
    }

    const BULK_ACTIONS = [['resubmit', 'Resubmit'], ['cancel', 'Cancel'], ['release', 'Release from pause']];
    const BULK_WHAT = {
        resubmit: 'Each order in Error runs again from where it failed; any other is skipped, saying why.',
        cancel: 'Each order is abandoned and what it did is undone; a finished one is skipped, saying why.',
        release: 'Each order parked on a paused operation goes on through that pause; the pause holds every other.',
        redrive: 'Each dead letter goes back to its original queue.',
    };

    /**
     * A bulk action: the preview first (how many, the first few), then the reason, then the job, whose page
     * the console opens. With no filter and nothing selected the dialog asks, with a box to tick, whether
     * every order is meant; the server refuses it otherwise.
     */
    async function startBulk(page, action, label, selection) {
        const everything = !selection.orderIds && !Object.keys(selection.filter || selection.deadLetters || {}).length;
        let preview;
        try {
            preview = await post('bulk-jobs/preview', Object.assign({action, everything}, selection));
        } catch (error) {
            page.notify(problemText(error), true);
            return;
        }
        const noun = action === 'redrive' ? 'dead letter' : 'order';
        const sample = action === 'redrive'
            ? (preview.deadLetters || []).map((d) => d.messageId + ' ' + (d.orderId || '') + ' ' + (d.reason || ''))
            : (preview.orders || []).map((o) => o.orderId + ' ' + o.processState);
        const count = preview.tooMany ? 'More than 100,000 ' + noun + 's match: narrow the filter.'
            : preview.matched + ' ' + noun + (preview.matched === 1 ? '' : 's') + ' match'
            + (preview.unknown ? ' (' + preview.unknown + ' named no order and will be skipped)' : '')
            + (preview.partial ? ' among the first dead letters read' : '') + '.';
        askReason({
            title: label + ': bulk job',
            what: count + ' ' + BULK_WHAT[action] + (sample.length ? ' The first ' + sample.length + ':' : ''),
            sample,
            everything,
            post: (reason, all) => post('bulk-jobs', Object.assign({action, reason, everything: all}, selection)),
            done: (job) => {
                location.hash = '#/bulk/' + encodeURIComponent(job.id);
                return 'Bulk job ' + job.id + ' started on ' + job.total + ' ' + noun + 's.';
            },
        });
    }

    /** The API's next may be a bare cursor or a URL carrying it as after=. */
    function cursor(next) {
        if (!next) {
            return null;
        }
        const text = String(next);
        if (!text.includes('after=')) {
            return text;
        }
        return new URL(text, API).searchParams.get('after');
    }

    function ordersHash(params, after) {
        const q = new URLSearchParams(params);
        q.delete('after');
        if (after) {
            q.set('after', after);
        }
        const text = q.toString();
        return '#/orders' + (text ? '?' + text : '');
    }

    function orderFilters(p) {
        const field = (label, name, attrs) => h('label', null, label,
            h('input', Object.assign({name, id: 'filter-' + name, value: p.get(name) || ''}, attrs)));
        const state = h('select', {name: 'state', id: 'filter-state'}, h('option', {value: ''}, 'any'),
            STATES.map((st) => h('option', {value: st, selected: p.get('state') === st}, st)));
        const form = h('form', {class: 'filters', id: 'order-filters'},
            h('label', null, 'State', state),
            field('Workflow', 'workflow', {size: 12}),
            field('Customer', 'customer', {size: 12}),
            field('Attribute', 'attribute', {size: 14, placeholder: 'name:value'}),
            field('Min failures', 'minFailures', {type: 'number', min: 0, class: 'short'}),
            field('Older than (min)', 'olderThan', {type: 'number', min: 0, class: 'short'}),
            h('button', {type: 'submit'}, 'Filter'),
            h('a', {href: '#/orders', class: 'reset'}, 'Clear'));
        form.addEventListener('submit', (event) => {
            event.preventDefault();
            const q = new URLSearchParams();
            for (const [key, value] of new FormData(form)) {
                if (String(value).trim()) {
                    q.set(key, String(value).trim());
                }
            }
            location.hash = '#/orders' + (q.toString() ? '?' + q : '');
        });
        return form;
    }

    function order(r, root) {
        const id = r.id;
        const load = async () => {
            const detail = await call('orders/' + encodeURIComponent(id));
            const o = detail.order || {};
            try {
                detail.definition = await definitionOf(o.workflow, o.workflowVersion);
            } catch (error) {
                if (error instanceof ApiError && error.status === 401) {
                    throw error;
                }
                detail.definitionProblem = problemText(error);
            }
            return detail;
        };
        const page = frame(root, 'Order', load, (detail) => {
            const o = detail.order || {};
            const actions = detail.actions || {};
            const steps = o.steps || [];
            const waitingStep = steps.find((st) => st.name === o.pausedOn)
                || steps.find((st) => st.state !== 'Completed' && st.state !== 'Compensated');
            return [
                section('Summary', definitions([
                    ['Order', h('span', {class: 'mono', id: 'order-id'}, o.orderId)],
                    ['State', h('span', {id: 'order-state', class: 'badge state-' + String(o.processState).replace(/[^A-Za-z]/g, '')}, o.processState)],
                    ['Customer', o.customerId],
                    ['Workflow', h('a', {href: workflowHash(o.workflow, o.workflowVersion), id: 'order-workflow-link'},
                        o.workflowVersion ? `${o.workflow} (version ${o.workflowVersion})` : o.workflow),
                        {id: 'order-workflow'}],
                    ['Not before', time(o.notBefore), {id: 'order-not-before'}],
                    ['Items', (o.items || []).map((i) => `${i.sku} × ${i.quantity}`).join(', ')],
                    ['Attributes', Object.entries(o.attributes || {}).map(([k, v]) => `${k}: ${v}`).join(', '),
                        {id: 'order-attributes'}],
                    ['Failures', String(o.failureCount ?? 0)],
                    ['Paused on', o.pausedOn, {id: 'order-paused-on'}],
                    ['Locked by', o.lockedBy],
                    ['Complete by', time(o.completeBy)],
                    ['Last error', o.lastError, o.lastError ? {class: 'error-text'} : null],
                    ['Created', time(o.createdAt)],
                    ['Updated', time(o.updatedAt)],
                ], true), h('div', {class: 'buttons', id: 'order-actions'},
                    actions.resubmit ? actionButton('Resubmit', 'resubmit', {
                        title: 'Resubmit this order',
                        what: 'It runs again from the step that failed.',
                        post: (reason) => post(orderAction(id, 'resubmit'), {reason}),
                        done: (answer) => said(answer, 'Resubmitted'),
                    }) : null,
                    actions.cancel ? actionButton('Cancel order', 'cancel', {
                        title: 'Cancel this order',
                        what: 'It is abandoned, and what its completed steps did is undone.',
                        post: (reason) => post(orderAction(id, 'cancel'), {reason}),
                        done: (answer) => said(answer, 'Cancelled'),
                    }) : null)),
                section('Steps', table('steps', ['#', 'Step', 'Runs', 'State', 'Attempts', 'Failures', 'Complete by', 'Locked by', 'Last error', 'Paused on'],
                    steps.map((st, i) => h('tr', {'data-step': st.name},
                        h('td', {class: 'num'}, i + 1), h('td', {class: 'mono'}, st.name),
                        h('td', {class: 'runs'}, st.group ? 'in parallel: ' + st.group
                            : st.event ? 'waits for event ' + st.event : 'in order'),
                        h('td', null, badge(st.state)),
                        h('td', {class: 'num'}, st.attempts ?? ''), h('td', {class: 'num'}, st.failureCount ?? 0),
                        timeCell(st.completeBy), h('td', {class: 'mono'}, st.lockedBy || ''),
                        h('td', {class: 'error-text'}, st.lastError || ''),
                        h('td', {class: 'paused-on'}, o.pausedOn && st === waitingStep ? o.pausedOn : ''))),
                    'No steps.')),
                section('Graph', detail.definition
                    ? workflowFigure(detail.definition, new Map(steps.map((st) => [st.name, st])), 'order-graph')
                    : h('p', {class: 'muted', id: 'order-graph-missing'}, 'The definition cannot be read: ', detail.definitionProblem || '')),
                section('Timeline', gantt(detail.history || [], steps, Date.now())),
                section('History', timeline(detail.history || [])),
                section('Remote calls', table('calls', ['Step', 'Operation', 'Idempotency key', 'At', 'Result', 'Detail'],
                    (detail.calls || []).map((c) => h('tr', null,
                        h('td', {class: 'mono'}, c.step ?? ''), h('td', {class: 'mono'}, c.operation, c.compensation ? ' (undo)' : ''),
                        h('td', {class: 'mono small'}, c.idempotencyKey), timeCell(c.at),
                        h('td', null, badge(c.result)), h('td', {class: 'error-text'}, c.detail || ''))),
                    'No remote call yet.')),
            ];
        });
        page.extra.append(h('p', null, h('a', {href: '#/orders'}, '« Orders')));
        return page;
    }

    function timeline(history) {
        if (!history.length) {
            return h('p', {class: 'muted'}, 'No history.');
        }
        return h('ol', {class: 'timeline', id: 'history'}, history.map((e) => h('li', {'data-seq': e.seq},
            h('span', {class: 'when', title: e.at}, time(e.at)), ' ',
            e.step ? h('span', {class: 'mono'}, e.step + ': ') : null,
            e.from ? [badge(e.from), ' → '] : null, badge(e.to), ' ',
            h('span', {class: 'actor'}, 'by ', e.actor, e.actorName ? ' (' + e.actorName + ')' : ''),
            e.reason ? h('span', {class: 'reason'}, ' — ', e.reason) : null)));
    }

    function queues(r, root) {
        const load = async () => {
            const [depths, dead, overviewData] = await Promise.allSettled([call('queues'),
                call('dead-letters?limit=50'), brokerConsole === undefined ? call('overview') : Promise.resolve(null)]);
            for (const result of [depths, dead]) {
                if (result.status === 'rejected' && result.reason instanceof ApiError && result.reason.status === 401) {
                    throw result.reason;
                }
            }
            if (overviewData.status === 'fulfilled' && overviewData.value) {
                brokerConsole = overviewData.value.brokerConsole;
            }
            return {depths, dead};
        };
        const page = frame(root, 'Queues', load, ({depths, dead}) => {
            const letters = dead.status === 'fulfilled' ? [].concat(dead.value || []) : [];
            return [
                section('Queues', depths.status === 'fulfilled' ? queueTable([].concat(depths.value || []), false)
                    : h('p', {class: 'problem'}, problemText(depths.reason)),
                h('p', null, brokerLink(brokerConsole), ' — for broker-level work; this console is for orders.')),
                section('Dead letters',
                    dead.status === 'rejected' ? h('p', {class: 'problem'}, problemText(dead.reason)) : null,
                    letters.length ? h('div', {class: 'buttons'}, actionButton('Redrive all', 'redrive-all', {
                        title: 'Redrive every dead letter',
                        what: 'Each goes back to the queue it was dead-lettered from.',
                        post: (reason) => post('dead-letters/redrive', {reason}),
                        done: (answer) => (answer.count ?? 'The') + ' dead letters sent back to their queues.',
                    })) : null,
                    dead.status === 'fulfilled' ? table('dead-letters', ['Message', 'From queue', 'Reason', 'Order', 'At', 'Body', ''],
                        letters.map((d) => h('tr', {'data-message-id': d.messageId},
                            h('td', {class: 'mono'}, d.messageId), h('td', {class: 'mono'}, d.originalQueue || ''),
                            h('td', {class: 'error-text'}, d.reason || ''),
                            h('td', null, d.orderId ? orderLink(d.orderId) : ''), timeCell(d.timestamp),
                            h('td', null, h('pre', {class: 'body-preview', title: d.type || null}, preview(d.body))),
                            h('td', {class: 'nowrap'}, deadLetterButtons(d)))),
                        'No dead letters.') : null),
            ];
        });
        if (isOperator()) {
            page.extra.append(deadLetterBulk(page));
        }
        return page;
    }

    /** The bulk redrive of the dead letters from one queue, or whose reason says something: preview, reason, job. */
    function deadLetterBulk(page) {
        const queue = h('input', {id: 'bulk-dlq-queue', name: 'originalQueue', size: 14, placeholder: 'orders'});
        const reason = h('input', {id: 'bulk-dlq-reason', name: 'reason', size: 24, placeholder: 'text in the reason'});
        const form = h('form', {class: 'filters', id: 'bulk-dlq'},
            h('label', null, 'From queue', queue), h('label', null, 'Reason contains', reason),
            h('button', {type: 'submit', class: 'secondary', 'data-bulk': 'redrive'}, 'Redrive matching…'));
        form.addEventListener('submit', (event) => {
            event.preventDefault();
            const filter = {};
            if (queue.value.trim()) {
                filter.originalQueue = queue.value.trim();
            }
            if (reason.value.trim()) {
                filter.reason = reason.value.trim();
            }
            startBulk(page, 'redrive', 'Redrive', {deadLetters: filter});
        });
        return form;
    }

    function preview(body, max = 300) {
        const text = String(body ?? '');
        return text.length > max ? text.slice(0, max) + '…' : text;
    }

    function deadLetterButtons(d) {
        const path = 'dead-letters/' + encodeURIComponent(d.messageId);
        return [
            actionButton('Redrive', 'redrive', {
                title: 'Redrive message ' + d.messageId,
                what: 'It goes back to ' + (d.originalQueue || 'its original queue') + '.',
                post: (reason) => post(path + '/redrive', {reason}),
                done: (answer) => said(answer, 'Message ' + d.messageId + ' redriven'),
            }),
            actionButton('Delete', 'delete', {
                title: 'Delete message ' + d.messageId,
                what: 'It is gone for good (the audit log keeps that you did it, and why).',
                post: (reason) => post(path + '/delete', {reason}),
                done: (answer) => said(answer, 'Message ' + d.messageId + ' deleted'),
            }),
        ];
    }

    function pauses(r, root) {
        const page = frame(root, 'Pauses', () => call('pauses'), (data) => {
            syncOperations(data.operations || []);
            return section('Paused now', table('pauses-table', ['What', 'Paused by', 'Since', 'Reason', 'Waiting', ''],
                (data.paused || []).map((p) => h('tr', {'data-scope': p.scope},
                    h('td', {class: 'mono'}, p.scope === 'all' ? 'everything' : p.scope), h('td', null, p.pausedBy),
                    timeCell(p.pausedAt), h('td', null, p.reason), h('td', {class: 'num'}, p.waiting ?? ''),
                    h('td', null, actionButton('Resume', 'resume', resumeAsk(p.scope))))),
                'Nothing is paused: every operation is dispatched.'));
        });
        const select = h('select', {id: 'pause-operation'}, h('option', {value: 'all'}, 'everything'));
        let known = '';
        function syncOperations(operations) {
            if (operations.join('\n') === known) {
                return;
            }
            known = operations.join('\n');
            const chosen = select.value;
            select.replaceChildren(h('option', {value: 'all'}, 'everything'),
                ...operations.map((op) => h('option', {value: op, selected: op === chosen}, op)));
        }
        if (isOperator()) {
            page.extra.append(section('Pause dispatch',
                h('p', {class: 'muted'}, 'Paused work waits (Pending, paused on the operation): it does not fail, and the supervisor does not count the wait.'),
                h('div', {class: 'buttons'}, h('label', null, 'Operation ', select),
                    h('button', {type: 'button', class: 'action', 'data-action': 'pause',
                        on: {click: () => askReason(pauseAsk(select.value))}}, 'Pause…'))));
        }
        return page;
    }

    function instances(r, root) {
        return frame(root, 'Supervisor and instances', () => call('instances'), (data) => {
            const sup = data.supervisor || {};
            return [
                section('Supervisor', definitions([
                    ['Lease held by', sup.holder, {class: 'mono', id: 'supervisor-holder'}],
                    ['Lease expires', time(sup.expiresAt)],
                    ['Epoch', sup.epoch === undefined || sup.epoch === null ? '' : String(sup.epoch)],
                    ['Last sweep with work', time(sup.lastRunAt)],
                    ['What it recovered', sup.lastRunNote],
                ])),
                section('Scheduler instances', table('instances-table', ['Instance', 'Started', 'Last seen', 'Alive', 'Holds'],
                    (data.instances || []).map((i) => h('tr', {'data-instance': i.instanceId},
                        h('td', {class: 'mono'}, i.instanceId), timeCell(i.startedAt), timeCell(i.lastSeen),
                        h('td', null, h('span', {class: 'badge ' + (i.alive ? 'state-Processed' : 'state-Error')}, i.alive ? 'alive' : 'silent')),
                        h('td', {class: 'num'}, i.holds ?? 0))),
                    'No instance has reported yet.')),
                database(data.database || {}),
            ];
        });
    }

    /** The PostgreSQL server this instance reaches (with --db-ha: the primary of the moment) and its standbys. */
    function database(db) {
        const role = db.primary ? 'primary' : 'standby (read only)';
        return section('Database', definitions([
            ['Serving', db.server, {class: 'mono', id: 'database-server'}],
            ['Role', h('span', {class: 'badge ' + (db.primary ? 'state-Processed' : 'state-Error'), id: 'database-role'}, role)],
            ['PostgreSQL', db.version],
            ['Synchronous standbys', db.synchronousStandbyNames || 'none (commits wait for no standby)'],
        ]), table('standbys-table', ['Standby', 'Address', 'State', 'Sync', 'Behind (bytes)'],
            (db.standbys || []).map((s) => h('tr', {'data-standby': s.name},
                h('td', {class: 'mono'}, s.name), h('td', {class: 'mono'}, s.address || ''), h('td', null, s.state || ''),
                h('td', null, s.syncState || ''), h('td', {class: 'num'}, s.lagBytes ?? ''))),
            'No standby streams from this server.'));
    }

    function audit(r, root) {
        const before = r.params.get('before');
        const path = 'audit?limit=50' + (before ? '&before=' + encodeURIComponent(before) : '');
        return frame(root, 'Audit log', () => call(path), (data) => {
            const entries = Array.isArray(data) ? data : (data && data.entries) || [];
            const last = entries[entries.length - 1];
            return [
                table('audit-table', ['At', 'Operator', 'Action', 'Target', 'Reason', 'Outcome'],
                    entries.map((e) => h('tr', {'data-audit-id': e.id},
                        timeCell(e.at), h('td', null, e.operator), h('td', {class: 'mono'}, e.action),
                        h('td', {class: 'mono small'}, e.target), h('td', null, e.reason), h('td', null, e.outcome || ''))),
                    'Nobody has acted yet.'),
                h('p', {class: 'pager'},
                    before ? h('a', {href: '#/audit'}, '« Newest') : null,
                    last && entries.length >= 50 ? h('a', {href: '#/audit?before=' + encodeURIComponent(last.id)}, 'Older »') : null),
            ];
        });
    }

    function bulkProgress(job) {
        const acted = job.done + job.skipped + job.failed;
        return h('span', {class: 'progress-cell'}, h('progress', {max: Math.max(1, job.total), value: acted}),
            ' ' + acted + ' / ' + job.total);
    }

    function bulk(r, root) {
        const before = r.params.get('before');
        const path = 'bulk-jobs?limit=50' + (before ? '&before=' + encodeURIComponent(before) : '');
        return frame(root, 'Bulk jobs', () => call(path), (data) => {
            const jobs = (data && data.jobs) || [];
            return [
                h('p', {class: 'muted'}, isOperator() ? 'Start one from the orders listing (filter, then a bulk action)'
                    + ' or from the dead letters on the queues page.' : 'Operators start them; you see them.'),
                table('bulk-table', ['Job', 'Action', 'State', 'Progress', 'Done', 'Skipped', 'Failed', 'Operator', 'Reason',
                    'Running on', 'Started'],
                    jobs.map((job) => h('tr', {'data-job-id': job.id},
                        h('td', null, h('a', {href: '#/bulk/' + encodeURIComponent(job.id)}, '#' + job.id)),
                        h('td', {class: 'mono'}, job.action), h('td', null, badge(job.state)), h('td', null, bulkProgress(job)),
                        h('td', {class: 'num'}, job.done), h('td', {class: 'num'}, job.skipped), h('td', {class: 'num'}, job.failed),
                        h('td', null, job.operator), h('td', null, job.reason), h('td', {class: 'mono small'}, job.runner || ''),
                        timeCell(job.createdAt))),
                    'No bulk job yet.'),
                h('p', {class: 'pager'},
                    before ? h('a', {href: '#/bulk'}, '« Newest') : null,
                    data && data.next ? h('a', {href: '#/bulk?before=' + encodeURIComponent(jobs[jobs.length - 1].id)}, 'Older »') : null),
            ];
        });
    }

    function bulkJob(r, root) {
        const id = encodeURIComponent(r.id);
        const load = async () => {
            const [job, skipped, failed] = await Promise.all([call('bulk-jobs/' + id),
                call('bulk-jobs/' + id + '/items?outcome=skipped&limit=100'),
                call('bulk-jobs/' + id + '/items?outcome=failed&limit=100')]);
            return {job, skipped: skipped.items || [], failed: failed.items || []};
        };
        const target = (job, item) => job.action === 'redrive' ? h('span', {class: 'mono'}, item.target)
            : orderLink(item.target, item.target);
        const itemTable = (tableId, job, items, empty) => table(tableId, ['#', 'Target', 'Why', 'At'],
            items.map((item) => h('tr', {'data-target': item.target}, h('td', {class: 'num'}, item.seq),
                h('td', null, target(job, item)), h('td', {class: 'why'}, item.detail || ''), timeCell(item.actedAt))), empty);
        const page = frame(root, 'Bulk job ' + r.id, load, ({job, skipped, failed}) => [
            section('Job', definitions([
                ['Action', job.action, {id: 'bulk-action', class: 'mono'}],
                ['State', badge(job.state), {id: 'bulk-state'}],
                ['Progress', bulkProgress(job), {id: 'bulk-progress'}],
                ['Targets', String(job.total), {id: 'bulk-total'}],
                ['Done', String(job.done), {id: 'bulk-done'}],
                ['Skipped', String(job.skipped), {id: 'bulk-skipped'}],
                ['Failed', String(job.failed), {id: 'bulk-failed'}],
                ['Selection', job.selection, {class: 'mono small', id: 'bulk-selection'}],
                ['Operator', job.operator], ['Reason', job.reason],
                ['Pace', job.rate + ' a second at most'],
                ['Running on', job.runner, {id: 'bulk-runner', class: 'mono'}],
                ['Started', time(job.createdAt)], ['Finished', time(job.finishedAt)],
                job.endedBy ? ['Cancelled by', job.endedBy + ': ' + (job.endedReason || '')] : null,
            ], true), h('div', {class: 'buttons', id: 'bulk-actions'},
                job.state === 'Running' ? actionButton('Cancel job', 'cancel-bulk', {
                    title: 'Cancel bulk job ' + job.id,
                    what: 'What it has not acted on yet is skipped; what it did stays done.',
                    post: (reason) => post('bulk-jobs/' + id + '/cancel', {reason}),
                    done: () => 'Cancelled.',
                }) : null)),
            section('Skipped', itemTable('bulk-skipped-items', job, skipped, 'Nothing skipped.')),
            section('Failed', itemTable('bulk-failed-items', job, failed, 'Nothing failed.')),
        ]);
        page.extra.append(h('p', null, h('a', {href: '#/bulk'}, '« Bulk jobs')));
        return page;
    }

    // ---------------------------------------------------------------- workflows drawn (inline SVG)

    const definitionCache = new Map(); // "name@version" → the definition; a version never changes

    /** The definition an order runs under: its version, or the current one for an order stored before versions. */
    async function definitionOf(name, version) {
        const key = name + '@' + (version || '');
        if (!definitionCache.has(key)) {
            const path = 'workflows/' + encodeURIComponent(name)
                + (version ? '/versions/' + encodeURIComponent(version) : '');
            const definition = await call(path);
            if (version) {
                definitionCache.set(key, definition); // the current one may change with a deployment
            }
            return definition;
        }
        return definitionCache.get(key);
    }

    function workflows(r, root) {
        if (r.name) {
            return workflow(r, root);
        }
        return frame(root, 'Workflows', () => call('workflows'), (data) => table('workflows-table',
            ['Workflow', 'Current version', 'Steps in order', 'Other versions'],
            (data.workflows || []).map((w) => h('tr', {'data-workflow': w.name},
                h('td', null, h('a', {href: workflowHash(w.name, null), class: 'mono'}, w.name)),
                h('td', {class: 'mono'}, w.current || 'no longer defined'),
                h('td', {class: 'mono small'}, w.outline || ''),
                h('td', {class: 'mono small'}, (w.versions || []).filter((v) => !v.current).map((v, i) =>
                    [i ? ', ' : '', h('a', {href: workflowHash(w.name, v.version), title: v.firstSeen ? 'first stored ' + v.firstSeen : null}, v.version)])))),
            'No workflow is defined.'));
    }

    function workflowHash(name, version) {
        return '#/workflows/' + encodeURIComponent(name) + (version ? '?version=' + encodeURIComponent(version) : '');
    }

    function workflow(r, root) {
        const name = r.name;
        const version = r.params.get('version');
        const load = async () => {
            const [definition, all] = await Promise.all([
                version ? definitionOf(name, version) : call('workflows/' + encodeURIComponent(name)),
                call('workflows')]);
            return {definition, all};
        };
        let drawn = null;
        let drawnKey = null;
        const page = frame(root, 'Workflow', load, (data) => {
            // A definition does not change: each poll puts back the nodes drawn first rather than drawing anew.
            const key = JSON.stringify(data);
            if (key === drawnKey) {
                return drawn;
            }
            const d = data.definition;
            const entry = ((data.all && data.all.workflows) || []).find((w) => w.name === name) || {versions: []};
            drawnKey = key;
            drawn = [
                section('Definition', definitions([
                    ['Workflow', d.name, {class: 'mono', id: 'workflow-name'}],
                    ['Version', d.version, {class: 'mono', id: 'workflow-version'}],
                    ['Status', d.current ? 'current: new orders run it' : 'kept for the orders that run it'],
                    ['Steps', d.outline, {class: 'mono'}],
                    ['Versions', h('span', {id: 'workflow-versions'}, entry.versions.map((v, i) => [i ? ' · ' : '',
                        v.version === d.version ? h('strong', {class: 'mono'}, v.version)
                            : h('a', {href: workflowHash(name, v.version), class: 'mono'}, v.version),
                        v.current ? ' (current)' : '']))],
                ], true)),
                section('Graph', workflowFigure(d, null, 'workflow-graph')),
                section('Steps', table('workflow-steps', ['#', 'Step', 'Does', 'Group', 'Undo', 'Complete by', 'Retries', 'Backoff', 'Gives up by', 'Heartbeat'],
                    (d.steps || []).map((st, i) => h('tr', {'data-step': st.name},
                        h('td', {class: 'num'}, i + 1), h('td', {class: 'mono'}, st.name),
                        h('td', {class: 'mono'}, st.event ? 'waits for event ' + st.event : st.operation),
                        h('td', {class: 'mono'}, st.group || ''), h('td', {class: 'mono'}, st.compensation || ''),
                        h('td', null, isoDuration(st.completeBy)), h('td', {class: 'num'}, st.event ? '' : st.maxRetries),
                        h('td', null, st.backoff ? isoDuration(st.backoff.initial) + ', doubling to ' + isoDuration(st.backoff.cap) : ''),
                        h('td', null, st.onExhausted), h('td', null, isoDuration(st.heartbeat)))),
                    'No steps.')),
            ];
            return drawn;
        });
        page.extra.append(h('p', null, h('a', {href: '#/workflows'}, '« Workflows')));
        return page;
    }

    /** PT1M30S → "1 min 30 s"; anything else as given. */
    function isoDuration(text) {
        if (!text) {
            return '';
        }
        const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(String(text));
        if (!m) {
            return String(text);
        }
        const parts = [];
        if (m[1]) { parts.push(m[1] + ' h'); }
        if (m[2]) { parts.push(m[2] + ' min'); }
        if (m[3]) { parts.push(m[3] + ' s'); }
        return parts.join(' ') || '0 s';
    }

    /** What decides how a step runs, for its hover title. */
    function stepPolicy(st) {
        const lines = [st.name];
        lines.push(st.event ? 'waits for event ' + st.event + ' (no retries)' : 'calls ' + st.operation);
        if (st.group) {
            lines.push('in parallel group ' + st.group);
        }
        lines.push('complete by: ' + isoDuration(st.completeBy) + ' per attempt');
        if (!st.event) {
            lines.push('retries: ' + st.maxRetries + (st.backoff ? ', backoff ' + isoDuration(st.backoff.initial)
                + ' doubling to ' + isoDuration(st.backoff.cap) : ', at once'));
        }
        if (st.heartbeat) {
            lines.push('heartbeat: every ' + isoDuration(st.heartbeat));
        }
        lines.push('when it gives up: ' + st.onExhausted);
        lines.push(st.compensation ? 'undone by ' + st.compensation : 'nothing undoes it');
        return lines.join('\n');
    }

    /** Consecutive steps of one group form a stage; any other step is a stage alone. */
    function stagesOf(steps) {
        const stages = [];
        for (const st of steps || []) {
            const last = stages[stages.length - 1];
            if (st.group && last && last.group === st.group) {
                last.steps.push(st);
            } else {
                stages.push({group: st.group || null, steps: [st]});
            }
        }
        return stages;
    }

    const NODE_W = 230, NODE_H = 64, GAP_X = 28, GAP_Y = 44, PAD = 20, BACK = 36;

    /**
     * The definition as a graph, top to bottom: one row per stage, a parallel group's steps side by side in
     * a dashed frame, an event wait as a rounded, dashed node, each step's undo under its name, and the
     * compensation path as a dashed edge back up the left side. live: the order's steps by name, to colour
     * each node by its state and show its attempts; null for the bare definition.
     */
    function workflowGraph(d, live, id) {
        const stages = stagesOf(d.steps);
        const widest = Math.max(1, ...stages.map((st) => st.steps.length));
        const W = BACK + PAD * 2 + widest * NODE_W + (widest - 1) * GAP_X;
        const H = PAD * 2 + stages.length * NODE_H + Math.max(0, stages.length - 1) * GAP_Y + 10;
        const svg = s('svg', {id, class: 'graph' + (live ? ' live' : ''), viewBox: `0 0 ${W} ${H}`, width: W,
            role: 'img', 'aria-label': 'Workflow ' + d.name + ': ' + (d.outline || '')});
        svg.append(s('defs', null, s('marker', {id: id + '-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5,
            markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse'}, s('path', {d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head'}))));
        const placed = stages.map((stage, row) => {
            const width = stage.steps.length * NODE_W + (stage.steps.length - 1) * GAP_X;
            const left = BACK + PAD + (widest * NODE_W + (widest - 1) * GAP_X - width) / 2;
            const y = PAD + row * (NODE_H + GAP_Y);
            return {stage, y, nodes: stage.steps.map((st, col) => ({st, x: left + col * (NODE_W + GAP_X), y}))};
        });
        const edges = s('g', {class: 'edges'});
        placed.forEach((p, i) => {
            if (i === 0) {
                return;
            }
            for (const from of placed[i - 1].nodes) {
                for (const to of p.nodes) {
                    const x1 = from.x + NODE_W / 2, y1 = from.y + NODE_H, x2 = to.x + NODE_W / 2, y2 = to.y;
                    const mid = (y1 + y2) / 2;
                    edges.append(s('path', {d: `M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2 - 2}`, class: 'edge',
                        'marker-end': `url(#${id}-arrow)`}));
                }
            }
        });
        svg.append(edges);
        const undoable = (d.steps || []).filter((st) => st.compensation);
        if (undoable.length && placed.length > 1) {
            // undoing runs back up the workflow, newest first
            const top = PAD + NODE_H / 2, bottom = placed[placed.length - 1].y + NODE_H / 2, x = BACK - 6;
            svg.append(s('g', {class: 'compensation-path', id: id + '-undo'},
                s('title', null, 'When a step gives up (compensate), the completed steps are undone newest first'),
                s('path', {d: `M${x + 14},${bottom} L${x},${bottom} L${x},${top} L${x + 14},${top}`, class: 'back-edge',
                    'marker-end': `url(#${id}-arrow)`}),
                s('text', {x: x - 4, y: (top + bottom) / 2, class: 'back-label',
                    transform: `rotate(-90 ${x - 4} ${(top + bottom) / 2})`}, 'undo, newest first')));
        }
        for (const p of placed) {
            if (p.stage.group) {
                const first = p.nodes[0], last = p.nodes[p.nodes.length - 1];
                svg.append(s('g', {class: 'group', 'data-group': p.stage.group},
                    s('rect', {x: first.x - 10, y: p.y - 16, width: last.x + NODE_W - first.x + 20, height: NODE_H + 24,
                        rx: 8, class: 'group-frame'}),
                    s('text', {x: first.x - 4, y: p.y - 5, class: 'group-label'}, 'parallel: ' + p.stage.group)));
            }
            for (const n of p.nodes) {
                svg.append(graphNode(n.st, n.x, n.y, live ? live.get(n.st.name) : null));
            }
        }
        return svg;
    }

    function graphNode(st, x, y, state) {
        const event = Boolean(st.event);
        const g = s('g', {class: 'node ' + (event ? 'event' : 'call') + (state ? ' state-' + cssName(state.state) : ''),
            'data-step': st.name, 'data-group': st.group || null, 'data-kind': event ? 'event' : 'call',
            'data-state': state ? state.state : null, 'data-attempts': state ? state.attempts ?? 0 : null,
            'data-x': x, 'data-y': y});
        const title = stepPolicy(st) + (state ? `\nnow: ${state.state}, attempts ${state.attempts ?? 0}, failures ${state.failureCount ?? 0}` : '');
        g.append(s('title', null, title),
            s('rect', {x, y, width: NODE_W, height: NODE_H, rx: event ? 22 : 5, class: 'node-box'}),
            s('text', {x: x + 12, y: y + 18, class: 'node-name'}, clip(st.name, 27)),
            s('text', {x: x + 12, y: y + 35, class: 'node-does'}, event ? 'waits: ' + clip(st.event, state ? 9 : 24) : clip(st.operation, state ? 15 : 30)),
            s('text', {x: x + 12, y: y + 53, class: 'node-policy'}, isoDuration(st.completeBy)
                + (event ? '' : ' · ↻ ' + st.maxRetries + (st.backoff ? ' backoff' : ''))));
        if (st.compensation) {
            g.append(s('text', {x: x + NODE_W - 10, y: y + 53, class: 'node-undo'}, '↺ ' + clip(st.compensation, 16)));
        }
        if (state) {
            g.append(s('text', {x: x + NODE_W - 10, y: y + 35, class: 'node-state'}, state.state
                + (state.attempts ? ' ×' + state.attempts : '')));
        }
        return g;
    }

    function clip(text, max) {
        const t = String(text ?? '');
        return t.length > max ? t.slice(0, max - 1) + '…' : t;
    }

    function cssName(text) {
        return String(text ?? 'none').replace(/[^A-Za-z]/g, '');
    }

    function workflowFigure(d, live, id) {
        return h('figure', {class: 'figure graph-figure'}, h('div', {class: 'scroll'}, workflowGraph(d, live, id)),
            h('figcaption', {class: 'legend', id: id + '-legend'},
                h('span', {class: 'key node-key'}), ' a step calling its operation  ',
                h('span', {class: 'key event-key'}), ' a wait for an external event  ',
                h('span', {class: 'key group-key'}), ' a parallel group (its steps run at once)  ',
                '↺ its undo (compensation)  ', '30 s: complete-by of one attempt  ', '↻ 3: retries after expiries  ',
                live ? 'colour: the step\'s state now; ×n its attempts  ' : '',
                '— hover a step for its whole policy.'));
    }

    // ---------------------------------------------------------------- an order's attempts (Gantt)

    /** Milliseconds of an ISO time; the API may give microseconds, which Date need not parse. */
    function ms(iso) {
        return iso ? new Date(String(iso).replace(/(\.\d{3})\d+/, '$1')).getTime() : NaN;
    }

    /**
     * Each attempt of each step, read from the history: a call runs from its step's move to Running until
     * it leaves Running (Completed, Failed, TimedOut, or NotStarted: expired or handed back, to be tried again); a compensation
     * from the move to Compensating until Compensated or CompensationFailed. An expired compensation is a
     * note Compensating → Compensating: the next attempt's claim is not recorded, so it is drawn from there.
     * An attempt still running has no end.
     */
    function attemptsOf(history) {
        const attempts = [];
        const open = new Map(); // step → its running attempt
        const counts = new Map();
        const begin = (e, kind, at) => {
            const n = (counts.get(e.step + kind) || 0) + 1;
            counts.set(e.step + kind, n);
            const a = {step: e.step, kind, n, start: at, end: null, outcome: null, reason: null};
            attempts.push(a);
            open.set(e.step, a);
        };
        const finish = (e, outcome) => {
            const a = open.get(e.step);
            if (a) {
                a.end = e.at;
                a.outcome = outcome;
                a.reason = e.reason || null;
                open.delete(e.step);
            }
        };
        for (const e of history || []) {
            if (!e.step || !e.to) {
                continue;
            }
            if (e.from === 'Running' && e.to !== 'Running') {
                finish(e, e.to === 'NotStarted' ? 'Retried' : e.to);
            } else if (e.from === 'Compensating' && e.to === 'Compensating') {
                finish(e, 'Retried');
                begin(e, 'compensation', e.at);
            } else if (e.from === 'Compensating') {
                finish(e, e.to);
            }
            if (e.to === 'Running' && e.from !== 'Running') {
                begin(e, 'call', e.at);
            } else if (e.to === 'Compensating' && e.from !== 'Compensating') {
                finish(e, 'Abandoned');
                begin(e, 'compensation', e.at);
            }
        }
        return attempts;
    }

    /** A step of about `span` ms between ticks: at most eight of them. */
    function tickStep(span) {
        for (const step of [100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000,
            1800000, 3600000, 7200000, 21600000, 86400000]) {
            if (span / step <= 8) {
                return step;
            }
        }
        return Math.ceil(span / 8 / 86400000) * 86400000;
    }

    /** One row per step (the definition's order), one bar per attempt from its claim to its reply. */
    function gantt(history, steps, now) {
        const attempts = attemptsOf(history);
        if (!attempts.length) {
            return h('p', {class: 'muted', id: 'order-timeline-empty'}, 'No attempt yet.');
        }
        const names = (steps || []).map((st) => st.name);
        for (const a of attempts) {
            if (!names.includes(a.step)) {
                names.push(a.step);
            }
        }
        const waits = new Set((steps || []).filter((st) => st.event).map((st) => st.name));
        const t0 = Math.min(...attempts.map((a) => ms(a.start)));
        const end = Math.max(...attempts.map((a) => (a.end ? ms(a.end) : now)), t0 + 1);
        const span = Math.max(end - t0, 1000);
        const LABEL = 160, W = 860, ROW = 26, TOP = 8, AXIS = 28;
        const H = TOP + names.length * ROW + AXIS;
        const x = (t) => LABEL + ((t - t0) / span) * (W - LABEL - 10);
        const svg = s('svg', {id: 'order-timeline', class: 'gantt', viewBox: `0 0 ${W} ${H}`, role: 'img',
            'aria-label': 'Attempts of each step over time'});
        names.forEach((name, i) => {
            const y = TOP + i * ROW;
            svg.append(s('g', {class: 'gantt-row', 'data-step': name},
                s('rect', {x: 0, y, width: W, height: ROW, class: i % 2 ? 'row-odd' : 'row-even'}),
                s('text', {x: 6, y: y + 17, class: 'row-label'}, clip(name, 22))));
        });
        const step = tickStep(span);
        const axisY = TOP + names.length * ROW;
        svg.append(s('line', {x1: LABEL, y1: axisY, x2: W - 10, y2: axisY, class: 'axis'}));
        for (let t = 0; t <= span; t += step) {
            svg.append(s('line', {x1: x(t0 + t), y1: TOP, x2: x(t0 + t), y2: axisY + 4, class: 'gridline'}),
                s('text', {x: x(t0 + t), y: axisY + 16, class: 'tick middle'}, '+' + (t >= 60000 ? duration(t / 1000)
                    : (t / 1000).toFixed(step < 1000 ? 1 : 0) + ' s')));
        }
        svg.append(s('text', {x: 6, y: axisY + 16, class: 'tick'}, 'from ' + time(new Date(t0).toISOString()) + ' UTC'));
        for (const a of attempts) {
            const row = names.indexOf(a.step);
            const from = ms(a.start), to = a.end ? ms(a.end) : now;
            const y = TOP + row * ROW + (a.kind === 'compensation' ? 14 : 4);
            const took = ((to - from) / 1000).toFixed(2) + ' s';
            svg.append(s('rect', {x: x(from), y, width: Math.max(3, x(to) - x(from)), height: a.kind === 'compensation' ? 9 : 10,
                class: 'attempt ' + a.kind + (waits.has(a.step) ? ' wait' : '') + ' outcome-' + cssName(a.end ? a.outcome : 'Running'),
                'data-step': a.step, 'data-kind': a.kind, 'data-attempt': a.n, 'data-outcome': a.end ? a.outcome : 'Running'},
            s('title', null, `${a.step}: ${a.kind === 'compensation' ? 'compensation' : 'attempt'} ${a.n}\n`
                + `${a.start} → ${a.end || 'running'} (${took})\n${a.end ? a.outcome : 'running'}${a.reason ? ': ' + a.reason : ''}`)));
        }
        return h('figure', {class: 'figure'}, h('div', {class: 'scroll'}, svg),
            h('figcaption', {class: 'legend'},
                h('span', {class: 'key attempt-key'}), ' an attempt, claim to reply  ',
                h('span', {class: 'key expired-key'}), ' ended without a reply, tried again  ',
                h('span', {class: 'key failed-key'}), ' refused or given up  ',
                h('span', {class: 'key compensation-key'}), ' a compensation (lower half)  ',
                h('span', {class: 'key running-key'}), ' running now — hover a bar for its times.'));
    }

    const PAGES = {overview, orders, order, queues, pauses, instances, audit, bulk, bulkJob, workflows};

    // ---------------------------------------------------------------- wiring

    document.addEventListener('DOMContentLoaded', () => {
        $('#login-form').addEventListener('submit', signIn);
        $('#sign-out').addEventListener('click', () => signOut('Signed out.'));
        $('#action-form').addEventListener('submit', confirmAction);
        $('#action-cancel').addEventListener('click', () => {
            pending = null;
            $('#action-dialog').close();
        });
        $('#action-dialog').addEventListener('close', () => { pending = null; });
        window.addEventListener('hashchange', show);
        document.addEventListener('visibilitychange', () => {
            if (document.hidden) {
                clearTimeout(timer);
            } else {
                refresh();
            }
        });
        const saved = loadSession();
        if (!saved) {
            signOut();
            return;
        }
        start(saved.name, saved.header).catch((error) => signOut(loginProblem(error)));
    });
})();
