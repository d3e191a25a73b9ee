// #/overview: counts by state, the last hour's throughput and failures, alerts, queue depths, the oldest
// waiting order, pauses, flow limits and the state store's size.
import {actionButton} from '../lib/actions.js';
import {call} from '../lib/api.js';
import {h, s} from '../lib/dom.js';
import {bytes, duration, preview, time} from '../lib/format.js';
import {badge, orderLink, section, STATES, table} from '../lib/render.js';
import {frame} from '../lib/router.js';
import {isOperator} from '../lib/session.js';
import {pauseAsk, resumeAsk} from './pauses.js';
import {brokerLink, queueTable, rememberBrokerConsole} from './queues.js';

export function overview(r, root) {
    const load = () => call('overview'); // its queues are [] and an alert says why when the broker does not answer
    const page = frame(root, 'Overview', load, (o) => {
        rememberBrokerConsole(o.brokerConsole);
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
            o.store ? section('State store', storeSize(o.store)) : null,
        ];
    });
    return page;
}

/** Each table's rows (PostgreSQL's estimate), dead rows and bytes; the total; the oldest finished order kept. */
function storeSize(store) {
    const num = (text) => h('td', {class: 'num'}, text);
    const rows = (store.tables || []).map((t) => h('tr', {'data-table': t.table},
        h('td', {class: 'mono'}, t.table), num(String(t.rows)), num(String(t.deadRows)), num(bytes(t.tableBytes)),
        num(bytes(t.indexBytes))));
    return [
        table('store-tables', ['table', 'rows', 'dead rows', 'size', 'its indexes'], rows, 'No tables.'),
        h('p', {id: 'store-total'}, `${bytes(store.totalBytes)} in all. Oldest finished order kept: `,
            store.oldestFinished ? h('span', {title: store.oldestFinished}, time(store.oldestFinished)) : 'none', '.'),
    ];
}

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
