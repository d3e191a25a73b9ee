// Operators' actions: a button that only operators get, and the dialog that asks for the reason every
// action requires before it POSTs.
import {$, h} from './dom.js';
import {ApiError, problemText} from './api.js';
import {currentView, expired, refresh} from './router.js';
import {isOperator} from './session.js';

let pending = null; // the action the dialog is asking a reason for

/** An operator's button; for anyone else nothing at all, so a viewer's page has no action in it. */
export function actionButton(label, action, ask) {
    if (!isOperator()) {
        return null;
    }
    return h('button', {type: 'button', class: 'action', 'data-action': action, on: {click: () => askReason(ask)}}, label);
}

/**
 * ask: {title, what, post(reason) → promise of the answer, done(answer) → text for the page}.
 * The dialog stays open on a refusal, showing the problem's detail, so the operator may fix the reason.
 */
export function askReason(ask) {
    pending = {ask, page: currentView()};
    $('#action-title').textContent = ask.title;
    $('#action-what').textContent = ask.what || '';
    $('#action-sample').replaceChildren(...(ask.sample || []).map((line) => h('li', {class: 'mono small'}, line)));
    $('#action-sample').hidden = !(ask.sample || []).length;
    $('#action-everything-box').hidden = !ask.everything;
    $('#action-everything').checked = false;
    $('#action-reason').value = '';
    const problem = $('#action-problem');
    problem.hidden = true;
    problem.textContent = '';
    $('#action-submit').disabled = false;
    $('#action-dialog').showModal();
    $('#action-reason').focus();
}

async function confirmAction(event) {
    event.preventDefault();
    if (!pending) {
        return;
    }
    const {ask, page} = pending;
    const reason = $('#action-reason').value.trim();
    const problem = $('#action-problem');
    if (!reason) {
        problem.textContent = 'Say why: a reason is required.';
        problem.hidden = false;
        return;
    }
    if (ask.everything && !$('#action-everything').checked) {
        problem.textContent = 'Nothing is filtered: tick the box to act on every one, or go back and filter.';
        problem.hidden = false;
        return;
    }
    $('#action-submit').disabled = true;
    try {
        const answer = await ask.post(reason, Boolean(ask.everything));
        pending = null;
        $('#action-dialog').close();
        if (page === currentView()) {
            page.notify(ask.done(answer || {}));
            refresh();
        }
    } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
            $('#action-dialog').close();
            expired();
            return;
        }
        problem.textContent = problemText(error);
        problem.hidden = false;
        $('#action-submit').disabled = false;
    }
}

/** The dialog's own buttons: confirm posts, Back and Escape drop the action. */
export function wireActionDialog() {
    $('#action-form').addEventListener('submit', confirmAction);
    $('#action-cancel').addEventListener('click', () => {
        pending = null;
        $('#action-dialog').close();
    });
    $('#action-dialog').addEventListener('close', () => { pending = null; });
}
