// #/orders/{id}: one order, its steps, its graph and attempts, its history and remote calls; resubmit
// and cancel for operators.
import {actionButton} from '../lib/actions.js';
import {ApiError, call, orderActionPath, post, problemText, said} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {time} from '../lib/format.js';
import {gantt} from '../lib/gantt.js';
import {workflowFigure} from '../lib/graph.js';
import {badge, definitions, section, table, timeCell} from '../lib/render.js';
import {frame} from '../lib/router.js';
import {definitionOf, workflowHash} from './workflows.js';

export function order(r, root) {
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
                    post: (reason) => post(orderActionPath(id, 'resubmit'), {reason}),
                    done: (answer) => said(answer, 'Resubmitted'),
                }) : null,
                actions.cancel ? actionButton('Cancel order', 'cancel', {
                    title: 'Cancel this order',
                    what: 'It is abandoned, and what its completed steps did is undone.',
                    post: (reason) => post(orderActionPath(id, 'cancel'), {reason}),
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
