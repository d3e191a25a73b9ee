package io.overseer.platform;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Text from a client's bytes: strict UTF-8, so that a malformed body is refused rather than mangled. */
public final class Utf8 {

    private Utf8() {
    }

    /** The bytes as text; fails on any malformed or unmappable sequence (String's own decoding replaces them). */
    public static String decode(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes)).toString();
    }
}
