// #/queues: queue depths and the dead letters, each redriven or deleted, or redriven in bulk.
import {actionButton} from '../lib/actions.js';
import {ApiError, call, post, problemText, said} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {preview} from '../lib/format.js';
import {orderLink, section, table, timeCell} from '../lib/render.js';
import {frame} from '../lib/router.js';
import {isOperator} from '../lib/session.js';
import {startBulk} from './bulk.js';

let brokerConsole; // from the overview, for the queues page

export function rememberBrokerConsole(url) {
    brokerConsole = url;
}

export function brokerLink(url) {
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

export function queues(r, root) {
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

export function queueTable(queues, compact) {
    return table(compact ? 'queue-depths' : 'queues-table',
        compact ? ['Queue', 'Messages', 'Consumers', 'In flight'] : ['Queue', 'Messages', 'Consumers', 'In flight', 'Scheduled', 'Added'],
        queues.map((q) => h('tr', {'data-queue': q.name}, h('td', {class: 'mono'}, q.name),
            h('td', {class: 'num'}, q.messageCount), h('td', {class: 'num'}, q.consumerCount),
            h('td', {class: 'num'}, q.deliveringCount),
            compact ? null : [h('td', {class: 'num'}, q.scheduledCount), h('td', {class: 'num'}, q.messagesAdded)])),
        'No queue figures (the broker may be unreachable).');
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
