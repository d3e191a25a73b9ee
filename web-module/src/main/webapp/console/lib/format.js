// Text for times, durations and ids, as every page shows them. Pure functions of their arguments.

export function short(id) {
    const text = String(id ?? '');
    return text.length > 13 ? text.slice(0, 8) + '…' : text;
}

/** UTC, as the API gives it: today's times as hh:mm:ss, older ones with their date. */
export function time(iso) {
    if (!iso) {
        return '—';
    }
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) {
        return String(iso);
    }
    const text = date.toISOString();
    const today = new Date().toISOString().slice(0, 10);
    return text.slice(0, 10) === today ? text.slice(11, 19) : text.slice(0, 10) + ' ' + text.slice(11, 16);
}

export function duration(seconds) {
    const total = Math.max(0, Math.round(Number(seconds) || 0));
    if (total < 60) {
        return total + ' s';
    }
    if (total < 3600) {
        return Math.floor(total / 60) + ' min ' + (total % 60) + ' s';
    }
    return Math.floor(total / 3600) + ' h ' + Math.floor((total % 3600) / 60) + ' min';
}

/** PT1M30S → "1 min 30 s"; anything else as given. */
export function isoDuration(text) {
    if (!text) {
        return '';
    }
    const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(String(text));
    if (!m) {
        return String(text);
    }
    const parts = [];
    if (m[1]) { parts.push(m[1] + ' h'); }
    if (m[2]) { parts.push(m[2] + ' min'); }
    if (m[3]) { parts.push(m[3] + ' s'); }
    return parts.join(' ') || '0 s';
}

export function clip(text, max) {
    const t = String(text ?? '');
    return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

export function cssName(text) {
    return String(text ?? 'none').replace(/[^A-Za-z]/g, '');
}

export function preview(body, max = 300) {
    const text = String(body ?? '');
    return text.length > max ? text.slice(0, max) + '…' : text;
}

/** Milliseconds of an ISO time; the API may give microseconds, which Date need not parse. */
export function ms(iso) {
    return iso ? new Date(String(iso).replace(/(\.\d{3})\d+/, '$1')).getTime() : NaN;
}

/** Bytes for a reader: B, KiB, MiB, GiB (one decimal from KiB on). */
export function bytes(n) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let value = Number(n) || 0;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
    }
    return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
