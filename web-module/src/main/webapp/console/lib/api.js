// The admin API's client. fetch runs with credentials 'omit' and the page's own Authorization header, so
// the browser neither adds remembered credentials nor prompts for them; a refusal becomes an ApiError that
// carries the RFC 9457 problem.
import {credentials} from './session.js';

export const API = new URL('../api/admin/', document.baseURI);

export class ApiError extends Error {
    constructor(status, problem) {
        super('HTTP ' + status);
        this.status = status;
        this.problem = problem;
    }
}

export async function call(path, {method = 'GET', body, header = credentials(), contentType} = {}) {
    const headers = {Accept: 'application/json, application/problem+json'};
    if (header) {
        headers.Authorization = header;
    }
    const init = {method, headers, credentials: 'omit', cache: 'no-store', redirect: 'error'};
    if (body !== undefined) {
        headers['Content-Type'] = contentType || 'application/json';
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(new URL(path, API), init);
    const text = await response.text();
    let json = null;
    try {
        json = text ? JSON.parse(text) : null;
    } catch (e) {
        json = null;
    }
    if (!response.ok) {
        throw new ApiError(response.status, json);
    }
    return json;
}

export function post(path, body) {
    return call(path, {method: 'POST', body});
}

/**
 * Where an operator's action on one order goes (resubmit, cancel): its one URL,
 * /api/operator/orders/{id}/{action} (docs/http-api.md), written relative to the admin API the console calls;
 * the one place that names these URLs.
 */
export function orderActionPath(orderId, action) {
    return '../operator/orders/' + encodeURIComponent(orderId) + '/' + action;
}

/** What went wrong, in the server's words (RFC 9457 detail, else title) when it gave any. */
export function problemText(error) {
    if (error instanceof ApiError) {
        const problem = error.problem || {};
        const words = problem.detail || problem.title;
        return words ? String(words) : 'The server answered ' + error.status + '.';
    }
    // fetch rejects with a TypeError when no answer came at all
    return error instanceof TypeError ? 'The server cannot be reached: ' + error.message : error.message;
}

/** The server's own words about what it did, when it said any. */
export function said(answer, fallback) {
    const words = answer && (answer.detail || answer.message || answer.outcome);
    return words ? fallback + ': ' + words : fallback + '.';
}

/** Who the caller is, and with which of the console's roles (GET whoami). */
export async function identify(name, header) {
    const who = await call('whoami', {header});
    return {name: who.name || name, roles: Array.isArray(who.roles) ? who.roles : []};
}
