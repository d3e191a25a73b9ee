// A workflow drawn as inline SVG built with DOM calls (no library, no inline style): its definition on a
// workflow's page, and coloured by each step's state on an order's page.
import {h, s} from './dom.js';
import {clip, cssName, isoDuration} from './format.js';

/** What decides how a step runs, for its hover title. */
function stepPolicy(st) {
    const lines = [st.name];
    lines.push(st.event ? 'waits for event ' + st.event + ' (no retries)' : 'calls ' + st.operation);
    if (st.group) {
        lines.push('in parallel group ' + st.group);
    }
    lines.push('complete by: ' + isoDuration(st.completeBy) + ' per attempt');
    if (!st.event) {
        lines.push('retries: ' + st.maxRetries + (st.backoff ? ', backoff ' + isoDuration(st.backoff.initial)
            + ' doubling to ' + isoDuration(st.backoff.cap) : ', at once'));
    }
    if (st.heartbeat) {
        lines.push('heartbeat: every ' + isoDuration(st.heartbeat));
    }
    lines.push('when it gives up: ' + st.onExhausted);
    lines.push(st.compensation ? 'undone by ' + st.compensation : 'nothing undoes it');
    return lines.join('\n');
}

/** Consecutive steps of one group form a stage; any other step is a stage alone. */
function stagesOf(steps) {
    const stages = [];
    for (const st of steps || []) {
        const last = stages[stages.length - 1];
        if (st.group && last && last.group === st.group) {
            last.steps.push(st);
        } else {
            stages.push({group: st.group || null, steps: [st]});
        }
    }
    return stages;
}

const NODE_W = 230, NODE_H = 64, GAP_X = 28, GAP_Y = 44, PAD = 20, BACK = 36;

/**
 * The definition as a graph, top to bottom: one row per stage, a parallel group's steps side by side in
 * a dashed frame, an event wait as a rounded, dashed node, each step's undo under its name, and the
 * compensation path as a dashed edge back up the left side. live: the order's steps by name, to colour
 * each node by its state and show its attempts; null for the bare definition.
 */
function workflowGraph(d, live, id) {
    const stages = stagesOf(d.steps);
    const widest = Math.max(1, ...stages.map((st) => st.steps.length));
    const W = BACK + PAD * 2 + widest * NODE_W + (widest - 1) * GAP_X;
    const H = PAD * 2 + stages.length * NODE_H + Math.max(0, stages.length - 1) * GAP_Y + 10;
    const svg = s('svg', {id, class: 'graph' + (live ? ' live' : ''), viewBox: `0 0 ${W} ${H}`, width: W,
        role: 'img', 'aria-label': 'Workflow ' + d.name + ': ' + (d.outline || '')});
    svg.append(s('defs', null, s('marker', {id: id + '-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5,
        markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse'}, s('path', {d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head'}))));
    const placed = stages.map((stage, row) => {
        const width = stage.steps.length * NODE_W + (stage.steps.length - 1) * GAP_X;
        const left = BACK + PAD + (widest * NODE_W + (widest - 1) * GAP_X - width) / 2;
        const y = PAD + row * (NODE_H + GAP_Y);
        return {stage, y, nodes: stage.steps.map((st, col) => ({st, x: left + col * (NODE_W + GAP_X), y}))};
    });
    const edges = s('g', {class: 'edges'});
    placed.forEach((p, i) => {
        if (i === 0) {
            return;
        }
        for (const from of placed[i - 1].nodes) {
            for (const to of p.nodes) {
                const x1 = from.x + NODE_W / 2, y1 = from.y + NODE_H, x2 = to.x + NODE_W / 2, y2 = to.y;
                const mid = (y1 + y2) / 2;
                edges.append(s('path', {d: `M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2 - 2}`, class: 'edge',
                    'marker-end': `url(#${id}-arrow)`}));
            }
        }
    });
    svg.append(edges);
    const undoable = (d.steps || []).filter((st) => st.compensation);
    if (undoable.length && placed.length > 1) {
        // undoing runs back up the workflow, newest first
        const top = PAD + NODE_H / 2, bottom = placed[placed.length - 1].y + NODE_H / 2, x = BACK - 6;
        svg.append(s('g', {class: 'compensation-path', id: id + '-undo'},
            s('title', null, 'When a step gives up (compensate), the completed steps are undone newest first'),
            s('path', {d: `M${x + 14},${bottom} L${x},${bottom} L${x},${top} L${x + 14},${top}`, class: 'back-edge',
                'marker-end': `url(#${id}-arrow)`}),
            s('text', {x: x - 4, y: (top + bottom) / 2, class: 'back-label',
                transform: `rotate(-90 ${x - 4} ${(top + bottom) / 2})`}, 'undo, newest first')));
    }
    for (const p of placed) {
        if (p.stage.group) {
            const first = p.nodes[0], last = p.nodes[p.nodes.length - 1];
            svg.append(s('g', {class: 'group', 'data-group': p.stage.group},
                s('rect', {x: first.x - 10, y: p.y - 16, width: last.x + NODE_W - first.x + 20, height: NODE_H + 24,
                    rx: 8, class: 'group-frame'}),
                s('text', {x: first.x - 4, y: p.y - 5, class: 'group-label'}, 'parallel: ' + p.stage.group)));
        }
        for (const n of p.nodes) {
            svg.append(graphNode(n.st, n.x, n.y, live ? live.get(n.st.name) : null));
        }
    }
    return svg;
}

function graphNode(st, x, y, state) {
    const event = Boolean(st.event);
    const g = s('g', {class: 'node ' + (event ? 'event' : 'call') + (state ? ' state-' + cssName(state.state) : ''),
        'data-step': st.name, 'data-group': st.group || null, 'data-kind': event ? 'event' : 'call',
        'data-state': state ? state.state : null, 'data-attempts': state ? state.attempts ?? 0 : null,
        'data-x': x, 'data-y': y});
    const title = stepPolicy(st) + (state ? `\nnow: ${state.state}, attempts ${state.attempts ?? 0}, failures ${state.failureCount ?? 0}` : '');
    g.append(s('title', null, title),
        s('rect', {x, y, width: NODE_W, height: NODE_H, rx: event ? 22 : 5, class: 'node-box'}),
        s('text', {x: x + 12, y: y + 18, class: 'node-name'}, clip(st.name, 27)),
        s('text', {x: x + 12, y: y + 35, class: 'node-does'}, event ? 'waits: ' + clip(st.event, state ? 9 : 24) : clip(st.operation, state ? 15 : 30)),
        s('text', {x: x + 12, y: y + 53, class: 'node-policy'}, isoDuration(st.completeBy)
            + (event ? '' : ' · ↻ ' + st.maxRetries + (st.backoff ? ' backoff' : ''))));
    if (st.compensation) {
        g.append(s('text', {x: x + NODE_W - 10, y: y + 53, class: 'node-undo'}, '↺ ' + clip(st.compensation, 16)));
    }
    if (state) {
        g.append(s('text', {x: x + NODE_W - 10, y: y + 35, class: 'node-state'}, state.state
            + (state.attempts ? ' ×' + state.attempts : '')));
    }
    return g;
}

export function workflowFigure(d, live, id) {
    return h('figure', {class: 'figure graph-figure'}, h('div', {class: 'scroll'}, workflowGraph(d, live, id)),
        h('figcaption', {class: 'legend', id: id + '-legend'},
            h('span', {class: 'key node-key'}), ' a step calling its operation  ',
            h('span', {class: 'key event-key'}), ' a wait for an external event  ',
            h('span', {class: 'key group-key'}), ' a parallel group (its steps run at once)  ',
            '↺ its undo (compensation)  ', '30 s: complete-by of one attempt  ', '↻ 3: retries after expiries  ',
            live ? 'colour: the step\'s state now; ×n its attempts  ' : '',
            '— hover a step for its whole policy.'));
}
