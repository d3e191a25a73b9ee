// #/workflows and #/workflows/{name}?version=: the definitions, and one drawn with its steps' policies.
import {call} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {isoDuration} from '../lib/format.js';
import {workflowFigure} from '../lib/graph.js';
import {definitions, section, table} from '../lib/render.js';
import {frame} from '../lib/router.js';

const definitionCache = new Map(); // "name@version" → the definition; a version never changes

/** The definition an order runs under: its version, or the current one for an order stored before versions. */
export async function definitionOf(name, version) {
    const key = name + '@' + (version || '');
    if (!definitionCache.has(key)) {
        const path = 'workflows/' + encodeURIComponent(name)
            + (version ? '/versions/' + encodeURIComponent(version) : '');
        const definition = await call(path);
        if (version) {
            definitionCache.set(key, definition); // the current one may change with a deployment
        }
        return definition;
    }
    return definitionCache.get(key);
}

export function workflows(r, root) {
    if (r.name) {
        return workflow(r, root);
    }
    return frame(root, 'Workflows', () => call('workflows'), (data) => table('workflows-table',
        ['Workflow', 'Current version', 'Steps in order', 'Other versions'],
        (data.workflows || []).map((w) => h('tr', {'data-workflow': w.name},
            h('td', null, h('a', {href: workflowHash(w.name, null), class: 'mono'}, w.name)),
            h('td', {class: 'mono'}, w.current || 'no longer defined'),
            h('td', {class: 'mono small'}, w.outline || ''),
            h('td', {class: 'mono small'}, (w.versions || []).filter((v) => !v.current).map((v, i) =>
                [i ? ', ' : '', h('a', {href: workflowHash(w.name, v.version), title: v.firstSeen ? 'first stored ' + v.firstSeen : null}, v.version)])))),
        'No workflow is defined.'));
}

export function workflowHash(name, version) {
    return '#/workflows/' + encodeURIComponent(name) + (version ? '?version=' + encodeURIComponent(version) : '');
}

function workflow(r, root) {
    const name = r.name;
    const version = r.params.get('version');
    const load = async () => {
        const [definition, all] = await Promise.all([
            version ? definitionOf(name, version) : call('workflows/' + encodeURIComponent(name)),
            call('workflows')]);
        return {definition, all};
    };
    let drawn = null;
    let drawnKey = null;
    const page = frame(root, 'Workflow', load, (data) => {
        // A definition does not change: each poll puts back the nodes drawn first rather than drawing anew.
        const key = JSON.stringify(data);
        if (key === drawnKey) {
            return drawn;
        }
        const d = data.definition;
        const entry = ((data.all && data.all.workflows) || []).find((w) => w.name === name) || {versions: []};
        drawnKey = key;
        drawn = [
            section('Definition', definitions([
                ['Workflow', d.name, {class: 'mono', id: 'workflow-name'}],
                ['Version', d.version, {class: 'mono', id: 'workflow-version'}],
                ['Status', d.current ? 'current: new orders run it' : 'kept for the orders that run it'],
                ['Steps', d.outline, {class: 'mono'}],
                ['Versions', h('span', {id: 'workflow-versions'}, entry.versions.map((v, i) => [i ? ' · ' : '',
                    v.version === d.version ? h('strong', {class: 'mono'}, v.version)
                        : h('a', {href: workflowHash(name, v.version), class: 'mono'}, v.version),
                    v.current ? ' (current)' : '']))],
            ], true)),
            section('Graph', workflowFigure(d, null, 'workflow-graph')),
            section('Steps', table('workflow-steps', ['#', 'Step', 'Does', 'Group', 'Undo', 'Complete by', 'Retries', 'Backoff', 'Gives up by', 'Heartbeat'],
                (d.steps || []).map((st, i) => h('tr', {'data-step': st.name},
                    h('td', {class: 'num'}, i + 1), h('td', {class: 'mono'}, st.name),
                    h('td', {class: 'mono'}, st.event ? 'waits for event ' + st.event : st.operation),
                    h('td', {class: 'mono'}, st.group || ''), h('td', {class: 'mono'}, st.compensation || ''),
                    h('td', null, isoDuration(st.completeBy)), h('td', {class: 'num'}, st.event ? '' : st.maxRetries),
                    h('td', null, st.backoff ? isoDuration(st.backoff.initial) + ', doubling to ' + isoDuration(st.backoff.cap) : ''),
                    h('td', null, st.onExhausted), h('td', null, isoDuration(st.heartbeat)))),
                'No steps.')),
        ];
        return drawn;
    });
    page.extra.append(h('p', null, h('a', {href: '#/workflows'}, '« Workflows')));
    return page;
}
