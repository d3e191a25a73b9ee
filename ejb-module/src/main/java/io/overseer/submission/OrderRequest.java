package io.overseer.submission;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * A new order, as submitted over HTTP or as a JSON text message on the order queue. {@code workflow}
 * names the task type to run (default "order").
 */
public record OrderRequest(
        @NotBlank @Size(max = 100) String customerId,
        @NotNull @Size(min = 1, max = 100) List<@NotNull @Valid Item> items,
        @Pattern(regexp = "[a-z0-9][a-z0-9-]{0,63}") String workflow) {

    public record Item(
            @NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._-]+") String sku,
            @NotNull @Min(1) @Max(10_000) Integer quantity) {
    }
}
