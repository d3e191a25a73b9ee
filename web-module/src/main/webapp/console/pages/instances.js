// #/instances: the supervisor's lease, the scheduler instances, the database and its standbys.
import {call} from '../lib/api.js';
import {h} from '../lib/dom.js';
import {time} from '../lib/format.js';
import {definitions, section, table, timeCell} from '../lib/render.js';
import {frame} from '../lib/router.js';

export function instances(r, root) {
    return frame(root, 'Supervisor and instances', () => call('instances'), (data) => {
        const sup = data.supervisor || {};
        return [
            section('Supervisor', definitions([
                ['Lease held by', sup.holder, {class: 'mono', id: 'supervisor-holder'}],
                ['Lease expires', time(sup.expiresAt)],
                ['Epoch', sup.epoch === undefined || sup.epoch === null ? '' : String(sup.epoch)],
                ['Last sweep with work', time(sup.lastRunAt)],
                ['What it recovered', sup.lastRunNote],
            ])),
            section('Scheduler instances', table('instances-table', ['Instance', 'Started', 'Last seen', 'Alive', 'Holds'],
                (data.instances || []).map((i) => h('tr', {'data-instance': i.instanceId},
                    h('td', {class: 'mono'}, i.instanceId), timeCell(i.startedAt), timeCell(i.lastSeen),
                    h('td', null, h('span', {class: 'badge ' + (i.alive ? 'state-Processed' : 'state-Error')}, i.alive ? 'alive' : 'silent')),
                    h('td', {class: 'num'}, i.holds ?? 0))),
                'No instance has reported yet.')),
            database(data.database || {}),
        ];
    });
}

/** The PostgreSQL server this instance reaches (with --db-ha: the primary of the moment) and its standbys. */
function database(db) {
    const role = db.primary ? 'primary' : 'standby (read only)';
    return section('Database', definitions([
        ['Serving', db.server, {class: 'mono', id: 'database-server'}],
        ['Role', h('span', {class: 'badge ' + (db.primary ? 'state-Processed' : 'state-Error'), id: 'database-role'}, role)],
        ['PostgreSQL', db.version],
        ['Synchronous standbys', db.synchronousStandbyNames || 'none (commits wait for no standby)'],
    ]), table('standbys-table', ['Standby', 'Address', 'State', 'Sync', 'Behind (bytes)'],
        (db.standbys || []).map((s) => h('tr', {'data-standby': s.name},
            h('td', {class: 'mono'}, s.name), h('td', {class: 'mono'}, s.address || ''), h('td', null, s.state || ''),
            h('td', null, s.syncState || ''), h('td', {class: 'num'}, s.lagBytes ?? ''))),
        'No standby streams from this server.'));
}
