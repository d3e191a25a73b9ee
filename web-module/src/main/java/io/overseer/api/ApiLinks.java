package io.overseer.api;

import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;

/**
 * Links the API hands out (an order's {@code Location}, the listing's {@code next}), as path-absolute
 * references: {@code /api/orders/…}, with the context root the request came through. Never built from the
 * request's {@code Host} header, which the client chooses: an absolute link would reflect whatever host a
 * caller (or a cache poisoner in front of a shared cache) sent. A client resolves them against the URL it
 * called (RFC 9110 allows a relative Location).
 */
final class ApiLinks {

    private ApiLinks() {
    }

    static String order(UriInfo uriInfo, String orderId) {
        return UriBuilder.fromPath(apiPath(uriInfo)).path("orders").path(orderId).build().toString();
    }

    /** The link to a listing's next page: this request's, with {@code limit} and {@code after}; null on the last page. */
    static URI nextPage(UriInfo uriInfo, int limit, ListQuery.Cursor after) {
        if (after == null) {
            return null;
        }
        return UriBuilder.fromPath(uriInfo.getRequestUri().getRawPath())
                .replaceQuery(uriInfo.getRequestUri().getRawQuery())
                .replaceQueryParam("limit", limit).replaceQueryParam("after", after.encode()).build();
    }

    /** The application's base path, e.g. {@code /api/}: from the request line, not from the Host header. */
    private static String apiPath(UriInfo uriInfo) {
        return uriInfo.getBaseUri().getRawPath();
    }
}
