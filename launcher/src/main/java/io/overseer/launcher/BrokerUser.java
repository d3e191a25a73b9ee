package io.overseer.launcher;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A user of the local Artemis broker and its roles, which server-config/artemis/broker.xml grants
 * permissions to (see its security-settings). Written to the instance's etc/artemis-users.properties with
 * the password hashed the way Artemis's default codec checks it (PBKDF2WithHmacSHA1, 1024 iterations,
 * 32-byte salt, 512-bit key), so no password is stored in the clear.
 */
public record BrokerUser(String name, String password, List<String> roles) {

    /** The application server's own user: sends and consumes on the internal destinations. */
    public static final String APPLICATION = "application";
    public static final String SUBMITTER = "submitter";
    public static final String VIEWER = "viewer";
    /** The broker's administrators: every permission, the web console and management. */
    public static final String OPERATOR = "operator";
    public static final List<String> CLIENT_ROLES = List.of(SUBMITTER, VIEWER, OPERATOR);
    /**
     * What a client user's name may be: one word of an address, since its reply queues are
     * {@code overseer.reply.<name>.…} (the application's io.overseer.messaging.Destinations#replyPrefixOf).
     */
    public static final String CLIENT_NAME = "[A-Za-z0-9_-]{1,64}";

    private static final SecureRandom RANDOM = new SecureRandom();

    public BrokerUser {
        roles = List.copyOf(roles);
    }

    /** A user with a password made up now, for a stack that hands it to whoever needs it. */
    public static BrokerUser generated(String name, String... roles) {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        return new BrokerUser(name, Base64.getUrlEncoder().withoutPadding().encodeToString(secret), List.of(roles));
    }

    /** The role that owns {@code user}'s reply queues, {@code overseer.reply.<user>.#} (held by that user alone). */
    public static String replyOwnerRole(String user) {
        return "replies-of-" + user;
    }

    /** The line of artemis-users.properties: {@code name = ENC(iterations:salt:hash)}. */
    String usersFileLine() {
        byte[] salt = new byte[32];
        RANDOM.nextBytes(salt);
        try {
            byte[] hash = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA1")
                    .generateSecret(new PBEKeySpec(password.toCharArray(), salt, 1024, 512)).getEncoded();
            HexFormat hex = HexFormat.of().withUpperCase();
            return name + " = ENC(1024:" + hex.formatHex(salt) + ":" + hex.formatHex(hash) + ")";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA1 is part of every JDK", e);
        }
    }
}
