// #/pauses: what is paused, resuming it, and pausing one operation or everything.
import {actionButton, askReason} from '../lib/actions.js';
import {call, post, said} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {section, table, timeCell} from '../lib/render.js';
import {frame} from '../lib/router.js';
import {isOperator} from '../lib/session.js';

export function pauses(r, root) {
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

export function pauseAsk(scope) {
    const everything = scope === 'all';
    return {
        title: everything ? 'Pause everything' : 'Pause ' + scope,
        what: everything ? 'No scheduler starts any attempt until you resume; work waits, nothing fails.'
            : 'No scheduler starts an attempt calling ' + scope + ' until you resume; those orders wait.',
        post: (reason) => post('pauses', {scope, reason}),
        done: (answer) => said(answer, everything ? 'Everything is paused' : scope + ' is paused'),
    };
}

export function resumeAsk(scope) {
    return {
        title: scope === 'all' ? 'Resume everything' : 'Resume ' + scope,
        what: 'Parked orders are announced again and continue.',
        post: (reason) => post('pauses/' + encodeURIComponent(scope) + '/resume', {reason}),
        done: (answer) => said(answer, (scope === 'all' ? 'Everything' : scope) + ' resumed'),
    };
}
