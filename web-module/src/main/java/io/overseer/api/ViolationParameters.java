package io.overseer.api;

import jakarta.validation.Path;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Names a violated resource-method parameter as the client knows it: the header, query or path
 * parameter name of its JAX-RS annotation, rather than the compiler's "arg2".
 */
final class ViolationParameters {

    private ViolationParameters() {
    }

    /** The HTTP name of the parameter, or null for the entity (or if it cannot be found). */
    static String httpName(Class<?> resource, Path.MethodNode method, int index) {
        if (method == null) {
            return null;
        }
        List<Class<?>> types = method.getParameterTypes();
        // The root bean may be a container subclass (proxy) that does not repeat the annotations.
        for (Class<?> type = resource; type != null && type != Object.class; type = type.getSuperclass()) {
            try {
                Method m = type.getDeclaredMethod(method.getName(), types.toArray(Class<?>[]::new));
                String name = nameIn(m.getParameterAnnotations()[index]);
                if (name != null) {
                    return name;
                }
            } catch (NoSuchMethodException e) {
                // look in the superclass
            }
        }
        return null;
    }

    private static String nameIn(Annotation[] annotations) {
        for (Annotation annotation : annotations) {
            if (annotation instanceof HeaderParam header) {
                return header.value();
            }
            if (annotation instanceof QueryParam query) {
                return query.value();
            }
            if (annotation instanceof PathParam path) {
                return path.value();
            }
        }
        return null;
    }
}
