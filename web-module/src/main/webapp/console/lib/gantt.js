// An order's attempts over time (Gantt), read from its history: one row per step, one bar per attempt.
import {h, s} from './dom.js';
import {clip, cssName, duration, ms, time} from './format.js';

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
export function gantt(history, steps, now) {
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
