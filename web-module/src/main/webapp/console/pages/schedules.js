// #/schedules: the recurring schedules (docs/schedules.md) — when each ticks, where it stands, its orders —
// and an operator's pause, resume and trigger, each asking for the reason the audit log keeps.
import {actionButton} from '../lib/actions.js';
import {call, post, said} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {time} from '../lib/format.js';
import {orderLink, section, table} from '../lib/render.js';
import {frame} from '../lib/router.js';

export function schedules(r, root) {
    return frame(root, 'Schedules', () => call('schedules'), (data) => section('Recurring schedules',
        h('p', {class: 'muted'}, 'Each tick submits the schedule\'s order once, keyed by the schedule and the tick. '
            + 'Created over the API: POST /api/admin/schedules.'),
        table('schedules-table', ['Schedule', 'When', 'Next ticks', 'Last tick', 'Fired', 'Missed', 'Overlapped', 'Paused', ''],
            (data.schedules || []).map((s) => h('tr', {'data-schedule': s.id},
                h('td', null, h('a', {href: '#/orders?attribute=' + encodeURIComponent('schedule:' + s.id), class: 'mono'}, s.id),
                    h('div', {class: 'muted small'}, s.workflow)),
                h('td', {class: 'mono small'}, s.cron ? 'cron ' + s.cron : 'every ' + s.every, h('div', {class: 'muted'}, s.zone)),
                h('td', {class: 'small'}, (s.nextTicks || []).slice(0, 3).map((t) => h('div', {title: t}, new Date(t).toLocaleString()))),
                h('td', {class: 'nowrap', title: s.lastTick || null}, time(s.lastTick), ' ', s.lastOrderId ? orderLink(s.lastOrderId) : null),
                h('td', {class: 'num'}, s.fired), h('td', {class: 'num'}, s.missed), h('td', {class: 'num'}, s.overlapped),
                h('td', null, s.pausedReason || ''),
                h('td', null, s.pausedReason ? actionButton('Resume', 'resume', ask(s.id, 'resume'))
                    : actionButton('Pause', 'pause', ask(s.id, 'pause')), ' ', actionButton('Trigger', 'trigger', ask(s.id, 'trigger'))))),
            'No schedule yet.')));
}

const WHAT = {
    pause: ['Pause', 'No tick fires until you resume; the ticks meanwhile are missed ones, judged by its missed-tick policy.', 'paused'],
    resume: ['Resume', 'The ticks it missed follow its missed-tick policy at the next poll.', 'resumed'],
    trigger: ['Trigger', 'Its order is submitted now, outside its ticks; its next tick is unchanged.', 'triggered'],
};

function ask(id, action) {
    const [verb, what, done] = WHAT[action];
    return {
        title: verb + ' ' + id,
        what,
        post: (reason) => post('schedules/' + encodeURIComponent(id) + '/' + action, {reason}),
        done: (answer) => said(answer, id + ' ' + done),
    };
}
