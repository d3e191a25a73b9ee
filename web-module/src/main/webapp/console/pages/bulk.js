// #/bulk and #/bulk/{id}: bulk jobs and one job's progress; and starting one (preview, reason, job) from
// the orders listing or the dead letters.
import {actionButton, askReason} from '../lib/actions.js';
import {call, post, problemText} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {time} from '../lib/format.js';
import {badge, definitions, orderLink, section, table, timeCell} from '../lib/render.js';
import {frame} from '../lib/router.js';
import {isOperator} from '../lib/session.js';

export const BULK_ACTIONS = [['resubmit', 'Resubmit'], ['cancel', 'Cancel'], ['release', 'Release from pause']];

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
export async function startBulk(page, action, label, selection) {
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

function bulkProgress(job) {
    const acted = job.done + job.skipped + job.failed;
    return h('span', {class: 'progress-cell'}, h('progress', {max: Math.max(1, job.total), value: acted}),
        ' ' + acted + ' / ' + job.total);
}

export function bulk(r, root) {
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

export function bulkJob(r, root) {
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
