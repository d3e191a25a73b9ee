// #/audit: the audit log of operators' actions, newest first, paged.
import {call} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {table, timeCell} from '../lib/render.js';
import {frame} from '../lib/router.js';

export function audit(r, root) {
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
