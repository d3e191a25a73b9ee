// Signing in and out: the form asks the server who the user is (GET whoami) and lets in a viewer or an
// operator; a 401 later on signs out with a message saying why.
import {$} from './dom.js';
import {ApiError, identify, problemText} from './api.js';
import {show, stop} from './router.js';
import {basic, forget, isOperator, remember} from './session.js';

export async function signIn(event) {
    event.preventDefault();
    const user = $('#login-user').value;
    const header = basic(user, $('#login-password').value);
    showLoginProblem(null);
    $('#login-submit').disabled = true;
    try {
        await start(user, header);
    } catch (error) {
        showLoginProblem(loginProblem(error));
    } finally {
        $('#login-submit').disabled = false;
    }
}

export function loginProblem(error) {
    if (error instanceof ApiError && error.status === 401) {
        return 'Wrong user name or password.';
    }
    if (error instanceof ApiError && error.status === 403) {
        return 'This user may not use the console: it needs the viewer or the operator role.';
    }
    return problemText(error);
}

export async function start(name, header) {
    const who = await identify(name, header);
    if (!who.roles.includes('viewer') && !who.roles.includes('operator')) {
        throw new ApiError(403, null);
    }
    const me = remember({name: who.name, header, roles: who.roles});
    $('#login-password').value = '';
    $('#login').hidden = true;
    $('#page').hidden = false;
    $('#nav').hidden = false;
    $('#who').hidden = false;
    $('#who-name').textContent = me.name;
    $('#who-role').textContent = isOperator() ? 'operator' : 'viewer';
    show();
}

export function signOut(message) {
    forget();
    stop();
    $('#page').replaceChildren();
    $('#page').hidden = true;
    $('#nav').hidden = true;
    $('#who').hidden = true;
    $('#login').hidden = false;
    showLoginProblem(typeof message === 'string' ? message : null);
    $('#login-user').focus();
}

function showLoginProblem(text) {
    const p = $('#login-problem');
    p.textContent = text || '';
    p.hidden = !text;
}
