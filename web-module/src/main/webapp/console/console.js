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
        const everything = !selection.orderIds && !selection.deadLetters && !Object.keys(selection.filter || {}).length;
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
        const page = frame(root, 'Order', () => call('orders/' + encodeURIComponent(id)), (detail) => {
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
                    ['Workflow', o.workflowVersion ? `${o.workflow} (version ${o.workflowVersion})` : o.workflow,
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
                        post: (reason) => post('orders/' + encodeURIComponent(id) + '/resubmit', {reason}),
                        done: (answer) => said(answer, 'Resubmitted'),
                    }) : null,
                    actions.cancel ? actionButton('Cancel order', 'cancel', {
                        title: 'Cancel this order',
                        what: 'It is abandoned, and what its completed steps did is undone.',
                        post: (reason) => post('orders/' + encodeURIComponent(id) + '/cancel', {reason}),
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
        return frame(root, 'Queues', load, ({depths, dead}) => {
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

    const PAGES = {overview, orders, order, queues, pauses, instances, audit, bulk, bulkJob};

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
