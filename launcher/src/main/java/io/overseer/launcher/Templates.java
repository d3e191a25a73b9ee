package io.overseer.launcher;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** @KEY@ placeholder substitution for the server-config templates, and asadmin's property escaping. */
public final class Templates {

    private static final Pattern PLACEHOLDER = Pattern.compile("@([A-Z][A-Z0-9_]*)@");

    private Templates() {
    }

    /**
     * Replaces every {@code @KEY@} whose key is in {@code values}; unknown ones are left as they are so that
     * {@link #unresolved} can report them (a template newer than the launcher should be loud, not silent).
     */
    public static String substitute(String template, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder(template.length());
        while (m.find()) {
            String v = values.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(v != null ? v : m.group()));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Placeholders still present, e.g. to warn about a template expecting a value the launcher lacks. */
    public static Set<String> unresolved(String text) {
        Set<String> keys = new LinkedHashSet<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /**
     * Escapes a value for asadmin's {@code --property a=b:c=d} syntax, where ':' separates properties and
     * '=' separates name and value, so a JDBC URL becomes {@code jdbc\:postgresql\://host\:5432/db}.
     * Backslash first, otherwise the escapes we add would be doubled.
     */
    public static String asadminEscape(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (char c : value.toCharArray()) {
            if (c == '\\' || c == ':' || c == '=') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }
}
