package io.overseer.api;

import io.overseer.platform.Utf8;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Reads every JSON request body of the API (all are records) through {@link StrictJson}, after
 * bounding its size ({@code overseer.api.max-body-bytes}; a batch's, {@code overseer.api.max-batch-body-bytes}): a declared Content-Length over the limit is refused with 413 before a byte is
 * read, and a chunked body is read only up to the limit plus one byte. The body must be UTF-8 (RFC 8259);
 * invalid byte sequences are a 400, and a body declared in any other charset is a 415.
 * Being more specific than the JSON-B provider's {@code Object}, this reader is the one JAX-RS picks for
 * records.
 */
@Provider
@Consumes({MediaType.APPLICATION_JSON, "application/*+json"})
public class JsonBodyReader implements MessageBodyReader<Record> {

    /** Default bound of a request body; an order of 100 items is about 6 KB. */
    static final int DEFAULT_MAX_BYTES = 64 * 1024;

    /** Default bound of a batch's body ({@link OrderBatchRequest}): room for 100 orders of 100 items. */
    static final int DEFAULT_MAX_BATCH_BYTES = 1024 * 1024;

    private final int maxBytes = ConfigProvider.getConfig()
            .getOptionalValue("overseer.api.max-body-bytes", Integer.class).orElse(DEFAULT_MAX_BYTES);
    private final int maxBatchBytes = ConfigProvider.getConfig()
            .getOptionalValue("overseer.api.max-batch-body-bytes", Integer.class).orElse(DEFAULT_MAX_BATCH_BYTES);

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type.isRecord();
    }

    @Override
    public Record readFrom(Class<Record> type, Type genericType, Annotation[] annotations, MediaType mediaType,
                           MultivaluedMap<String, String> headers, InputStream body) throws IOException {
        requireUtf8(mediaType);
        int bound = OrderBatchRequest.class.equals(type) ? maxBatchBytes : maxBytes;
        String declared = headers.getFirst(HttpHeaders.CONTENT_LENGTH);
        if (declared != null && declared.matches("\\d{1,18}") && Long.parseLong(declared) > bound) {
            throw tooLarge(bound);
        }
        byte[] bytes = body.readNBytes(bound + 1);
        if (bytes.length > bound) {
            throw tooLarge(bound);
        }
        return StrictJson.read(utf8(bytes), type);
    }

    /**
     * RFC 8259 defines no charset parameter for application/json, and JSON exchanged between systems is
     * UTF-8; no parameter means UTF-8. A client that names another charset (or one that does not exist)
     * has most likely sent bytes in it: read as UTF-8 they would be refused as invalid at best and
     * misread at worst, so it is told plainly, before a byte is read.
     */
    private static void requireUtf8(MediaType mediaType) {
        String charset = mediaType == null ? null : mediaType.getParameters().get(MediaType.CHARSET_PARAMETER);
        if (charset != null && !charset.equalsIgnoreCase(StandardCharsets.UTF_8.name())) {
            throw new NotSupportedException("JSON bodies are UTF-8 only (charset=UTF-8, or no charset)");
        }
    }

    private static WebApplicationException tooLarge(int bound) {
        return new WebApplicationException("The body is larger than " + bound + " bytes",
                Response.Status.REQUEST_ENTITY_TOO_LARGE);
    }

    private static String utf8(byte[] bytes) {
        try {
            return Utf8.decode(bytes);
        } catch (CharacterCodingException e) {
            throw new InvalidRequestException("The body is not UTF-8");
        }
    }
}
