// The pieces every page is made of: a state badge, a link to an order, tables, cards, term lists.
import {h} from './dom.js';
import {short, time} from './format.js';

/** An order's states in the order of its life, for the overview's tiles and the listing's filter. */
export const STATES = ['Pending', 'Processing', 'Processed', 'Compensating', 'Compensated', 'Error'];

export function orderLink(orderId, text) {
    return h('a', {href: '#/orders/' + encodeURIComponent(orderId), class: 'mono'}, text || short(orderId));
}

export function badge(state) {
    return h('span', {class: 'badge state-' + String(state ?? 'none').replace(/[^A-Za-z]/g, '')}, state ?? '—');
}

export function table(id, headings, rows, empty) {
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

export function section(title, ...content) {
    return h('section', {class: 'card'}, h('h2', null, title), content);
}

export function definitions(pairs, wide) {
    return h('dl', {class: wide ? 'pairs wide' : 'pairs'}, pairs.filter(Boolean).map(([term, value, attrs]) =>
        [h('dt', null, term), h('dd', attrs || null, value === null || value === undefined || value === '' ? '—' : value)]));
}

export function timeCell(iso) {
    return h('td', {title: iso || null, class: 'nowrap'}, time(iso));
}
