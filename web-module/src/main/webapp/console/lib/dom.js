// Building the page: elements and SVG made with DOM calls. A string always becomes a text node and an
// attribute is set with setAttribute, so nothing from the server is ever parsed as markup.

export const $ = (selector) => document.querySelector(selector);

export function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    setAttrs(el, attrs);
    appendAll(el, children);
    return el;
}

export function s(tag, attrs, ...children) {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    setAttrs(el, attrs);
    appendAll(el, children);
    return el;
}

function setAttrs(el, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
        if (value === null || value === undefined || value === false) {
            continue;
        }
        if (key === 'on') {
            for (const [event, handler] of Object.entries(value)) {
                el.addEventListener(event, handler);
            }
        } else {
            el.setAttribute(key, value === true ? '' : String(value));
        }
    }
}

/** Appends nodes and strings; a string always becomes a text node. */
function appendAll(el, children) {
    for (const child of children.flat(Infinity)) {
        if (child === null || child === undefined || child === false) {
            continue;
        }
        el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
}
