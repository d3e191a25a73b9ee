// Who is signed in. The credentials live in sessionStorage (gone with the tab) and travel in an
// Authorization header the page sets itself (api.js), never in a cookie the browser would add.

const AUTH_KEY = 'overseer.console.session';

let me = null; // {name, header, roles}

export const isOperator = () => Boolean(me && me.roles.includes('operator'));

export function basic(user, password) {
    const bytes = new TextEncoder().encode(user + ':' + password);
    let binary = '';
    bytes.forEach((b) => { binary += String.fromCharCode(b); });
    return 'Basic ' + btoa(binary);
}

/** The caller, once the server has said who it is: kept for this tab. */
export function remember(who) {
    me = who;
    sessionStorage.setItem(AUTH_KEY, JSON.stringify({name: me.name, header: me.header}));
    return me;
}

export function forget() {
    sessionStorage.removeItem(AUTH_KEY);
    me = null;
}

export const signedIn = () => me !== null;

/** The Authorization header of the signed-in caller, if any. */
export const credentials = () => me && me.header;

export function loadSession() {
    try {
        const saved = JSON.parse(sessionStorage.getItem(AUTH_KEY));
        return saved && typeof saved.header === 'string' ? saved : null;
    } catch (e) {
        return null;
    }
}
