package io.overseer.agent.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published agent API, signature by signature, against the one recorded in {@code api.txt} beside this
 * test: every public and protected type, constructor, method, field (with a constant's value) and enum value of
 * {@code io.overseer.agent.api}. Any difference fails, an addition too, so that each change of what teams
 * compile against is made on purpose and checked against the package's compatibility promise (docs/releasing.md):
 * then record the new signature with {@code -Doverseer.api.record=true} and commit it with the change.
 */
class ApiSignatureTest {

    private static final String RECORDED = "api.txt";

    @Test
    void theApiIsTheRecordedOne() throws Exception {
        String actual = String.join("\n", signature()) + "\n";
        if (Boolean.getBoolean("overseer.api.record")) {
            Path file = Path.of("src/test/resources/io/overseer/agent/api", RECORDED);
            Files.writeString(file, actual, StandardCharsets.UTF_8);
            return;
        }
        String recorded;
        try (InputStream in = ApiSignatureTest.class.getResourceAsStream(RECORDED)) {
            recorded = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(recorded, actual, "The agent API changed. If that is meant (docs/releasing.md says what a minor"
                + " and a major release may change), record it: ./mvnw -pl agent-api test -Doverseer.api.record=true");
    }

    /** The API's types, found among the compiled classes of this package, and their public members. */
    static List<String> signature() throws IOException, URISyntaxException, ReflectiveOperationException {
        Path classes = Path.of(RemoteService.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("io/overseer/agent/api");
        List<String> names;
        try (Stream<Path> files = Files.list(classes)) {
            names = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class"))
                    .filter(n -> !n.equals("package-info.class")).map(n -> n.substring(0, n.length() - 6)).sorted()
                    .toList();
        }
        List<String> lines = new ArrayList<>();
        for (String name : names) {
            Class<?> type = Class.forName("io.overseer.agent.api." + name); // the binary name: Outer$Inner
            if (!Modifier.isPublic(type.getModifiers()) || type.isSynthetic()) {
                continue;
            }
            lines.add(declaration(type));
            members(type).forEach(member -> lines.add("  " + member));
        }
        return lines;
    }

    private static String declaration(Class<?> type) {
        String kind = type.isEnum() ? "enum" : type.isInterface() ? "interface" : "class";
        String supertypes = Stream.concat(
                        type.getSuperclass() == null || type.getSuperclass() == Object.class || type.isEnum()
                                ? Stream.empty() : Stream.of("extends " + type.getGenericSuperclass().getTypeName()),
                        Arrays.stream(type.getGenericInterfaces()).map(t -> "implements " + t.getTypeName()))
                .collect(Collectors.joining(" "));
        int modifiers = type.getModifiers() & ~Modifier.INTERFACE & ~Modifier.ABSTRACT & ~Modifier.STATIC;
        return (Modifier.toString(modifiers) + " " + kind + " " + type.getName() + " " + supertypes).trim();
    }

    private static List<String> members(Class<?> type) throws IllegalAccessException {
        List<String> members = new ArrayList<>();
        for (Field field : type.getDeclaredFields()) {
            if (visible(field.getModifiers()) && !field.isSynthetic()) {
                String value = Modifier.isStatic(field.getModifiers()) && Modifier.isFinal(field.getModifiers())
                        && (field.getType().isPrimitive() || field.getType() == String.class)
                        ? " = " + field.get(null) : "";
                members.add((field.isEnumConstant() ? "value " + field.getName() : field.toGenericString()) + value);
            }
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (visible(constructor.getModifiers()) && !constructor.isSynthetic()) {
                members.add(constructor.toGenericString());
            }
        }
        for (Method method : type.getDeclaredMethods()) {
            if (visible(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()) {
                members.add(method.toGenericString());
            }
        }
        members.sort(null);
        return members;
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }
}
