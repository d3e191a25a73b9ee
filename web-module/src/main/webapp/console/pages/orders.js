// #/orders: the listing, filtered and paged, and (for operators) the bulk actions on what it shows.
import {API, call} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {badge, orderLink, STATES, table, timeCell} from '../lib/render.js';
import {frame} from '../lib/router.js';
import {isOperator} from '../lib/session.js';
import {BULK_ACTIONS, startBulk} from './bulk.js';

const PAGE_SIZE = 25;

export function orders(r, root) {
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
