package io.overseer.recurring;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * When a schedule's ticks fall, before any time zone: a cron expression, read as wall-clock time, or a fixed
 * interval, in absolute time.
 *
 * <p>The cron dialect is the Unix one of crontab(5), five fields — minute, hour, day of month, month, day of
 * week — with lists, ranges and steps ({@code 0 2 * * 1-5}, {@code *}{@code /15 * * * *}); parsed and matched
 * by cron-utils. Matching happens on wall-clock time with no zone (UTC stands in for "no zone", as it has no
 * transitions), so that what a wall-clock time means across a daylight-saving change is decided in one
 * place, by the schedule's {@link DaylightSaving} policy, not by the library.
 */
public sealed interface Cadence permits Cadence.Cron, Cadence.Every {

    /** The shortest interval a schedule may have: ticks closer than this would be an order storm, not a schedule. */
    Duration SHORTEST_INTERVAL = Duration.ofSeconds(1);

    /** A cron expression of the Unix dialect; refused with the parser's reason when it is not one. */
    static Cadence cron(String expression) {
        return Cron.parse(expression);
    }

    /** A fixed interval of at least {@link #SHORTEST_INTERVAL}. */
    static Cadence every(Duration interval) {
        return new Every(interval);
    }

    /** A cron expression and its compiled matcher. */
    record Cron(String expression, ExecutionTime matcher) implements Cadence {

        private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

        static Cron parse(String expression) {
            if (expression == null || expression.isBlank()) {
                throw new IllegalArgumentException("a cron expression is required (five fields: minute hour day-of-month month day-of-week)");
            }
            try {
                com.cronutils.model.Cron cron = PARSER.parse(expression.trim()).validate();
                return new Cron(expression.trim(), ExecutionTime.forCron(cron));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not a cron expression of the Unix dialect (minute hour day-of-month month"
                        + " day-of-week): '" + expression + "': " + e.getMessage(), e);
            }
        }

        /** The first wall-clock time after {@code after} that the expression matches. */
        Optional<LocalDateTime> nextAfter(LocalDateTime after) {
            return matcher.nextExecution(after.atZone(ZoneOffset.UTC)).map(t -> t.toLocalDateTime());
        }

        @Override
        public String toString() {
            return "cron '" + expression + "'";
        }
    }

    /** Ticks a fixed duration apart, from the schedule's start. */
    record Every(Duration interval) implements Cadence {

        public Every {
            if (interval == null || interval.compareTo(SHORTEST_INTERVAL) < 0) {
                throw new IllegalArgumentException("an interval of at least " + SHORTEST_INTERVAL + " is required, not " + interval);
            }
        }

        @Override
        public String toString() {
            return "every " + interval;
        }
    }
}
