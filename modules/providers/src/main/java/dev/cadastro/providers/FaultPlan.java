package dev.cadastro.providers;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which calls of a simulated provider misbehave, and how. Thread-safe and changeable while the
 * provider serves: tests and demos switch faults on and off at run time.
 *
 * <p>Rules are checked in this order: a rule for the document asked about, then share rules, then
 * rules for every call; within each kind the newest rule wins.
 *
 * <p>A share rule is <b>deterministic</b>, not random: it counts the calls it sees and hits call
 * {@code n} (from 0) when {@code floor((n + 1) * share) > floor(n * share)}, so any run of calls gets
 * exactly its share (0.3 hits 3 calls of every 10) and a test sees the same sequence every time.
 *
 * <p>The grammar of {@link #parse} (for a command-line flag): rules separated by {@code ,}; a rule is a
 * fault followed by options separated by {@code ;}.
 *
 * <pre>
 * plan    = "" | "none" | rule ("," rule)*
 * rule    = fault (";" option)*
 * fault   = "down" | "slow=" duration | "malformed" | "extra-fields"
 * option  = "share=" number in (0, 1] | "document=" canonical CPF or CNPJ
 * duration = 250ms | 3s | 1m | an ISO-8601 duration (PT3S)
 * </pre>
 *
 * Examples: {@code down}, {@code slow=3s}, {@code malformed;share=0.3}, {@code
 * down;document=12345678000195}, {@code slow=500ms;share=0.5,down;document=11144477735}.
 */
public final class FaultPlan {
    private final List<Rule> rules = new CopyOnWriteArrayList<>();

    private FaultPlan() {}

    /** A plan with no fault: every call answers normally. */
    public static FaultPlan none() {
        return new FaultPlan();
    }

    /** Every call misbehaves with this fault. Returns this plan. */
    public FaultPlan always(Fault fault) {
        rules.add(new Rule(Objects.requireNonNull(fault, "fault"), null, 1.0));
        return this;
    }

    /** Calls about this document (canonical: digits, upper-case letters) misbehave. Returns this plan. */
    public FaultPlan forDocument(String canonicalDocument, Fault fault) {
        Objects.requireNonNull(canonicalDocument, "canonicalDocument");
        if (canonicalDocument.isBlank()) {
            throw new IllegalArgumentException("fault plan document must not be blank");
        }
        rules.add(new Rule(Objects.requireNonNull(fault, "fault"), canonicalDocument, 1.0));
        return this;
    }

    /** This share of calls (0 excluded, 1 included) misbehaves, deterministically. Returns this plan. */
    public FaultPlan forShare(double share, Fault fault) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("fault plan share " + share + " must be above 0 and at most 1");
        }
        rules.add(new Rule(Objects.requireNonNull(fault, "fault"), null, share));
        return this;
    }

    /** Removes every rule: calls answer normally again. Returns this plan. */
    public FaultPlan clear() {
        rules.clear();
        return this;
    }

    /** True when no rule is set. */
    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /**
     * The fault for one call about this document, if any. Each call counts once against every share
     * rule it reaches.
     */
    public Optional<Fault> faultFor(String canonicalDocument) {
        if (rules.isEmpty()) {
            return Optional.empty();
        }
        List<Rule> snapshot = new ArrayList<>(rules);
        for (int i = snapshot.size() - 1; i >= 0; i--) {
            Rule r = snapshot.get(i);
            if (r.document != null && r.document.equals(canonicalDocument)) {
                return Optional.of(r.fault);
            }
        }
        for (int i = snapshot.size() - 1; i >= 0; i--) {
            Rule r = snapshot.get(i);
            if (r.document == null && r.share < 1.0 && r.hits()) {
                return Optional.of(r.fault);
            }
        }
        for (int i = snapshot.size() - 1; i >= 0; i--) {
            Rule r = snapshot.get(i);
            if (r.document == null && r.share >= 1.0) {
                return Optional.of(r.fault);
            }
        }
        return Optional.empty();
    }

    /**
     * Parses a plan (grammar in the class comment).
     *
     * @throws IllegalArgumentException naming the token and the rule it breaks
     */
    public static FaultPlan parse(String spec) {
        FaultPlan plan = none();
        if (spec == null || spec.isBlank() || spec.strip().equalsIgnoreCase("none")) {
            return plan;
        }
        for (String ruleText : spec.split(",", -1)) {
            String[] parts = ruleText.strip().split(";", -1);
            Fault fault = fault(parts[0].strip(), ruleText);
            String document = null;
            Double share = null;
            for (int i = 1; i < parts.length; i++) {
                String option = parts[i].strip();
                if (option.startsWith("share=") && share == null) {
                    share = share(option.substring("share=".length()), option);
                } else if (option.startsWith("document=") && document == null) {
                    document = option.substring("document=".length()).strip();
                    if (document.isEmpty() || !document.matches("[0-9A-Z]{11}|[0-9A-Z]{14}")) {
                        throw new IllegalArgumentException("fault plan token \"" + option
                                + "\": document must be a canonical CPF (11 digits) or CNPJ (14 characters)");
                    }
                } else {
                    throw new IllegalArgumentException("fault plan token \"" + option
                            + "\": expected share=<0..1> or document=<CPF or CNPJ>, each at most once");
                }
            }
            if (document != null && share != null) {
                throw new IllegalArgumentException(
                        "fault plan rule \"" + ruleText.strip() + "\": share and document cannot be combined");
            }
            if (document != null) {
                plan.forDocument(document, fault);
            } else if (share != null) {
                plan.forShare(share, fault);
            } else {
                plan.always(fault);
            }
        }
        return plan;
    }

    private static Fault fault(String token, String ruleText) {
        String t = token.toLowerCase(Locale.ROOT);
        if (t.equals("down")) {
            return new Fault.Down();
        }
        if (t.equals("malformed")) {
            return new Fault.Malformed();
        }
        if (t.equals("extra-fields")) {
            return new Fault.ExtraFields();
        }
        if (t.startsWith("slow=")) {
            return new Fault.Slow(duration(token.substring("slow=".length()).strip(), token));
        }
        throw new IllegalArgumentException("fault plan token \"" + token + "\" in rule \"" + ruleText.strip()
                + "\": expected down, slow=<duration>, malformed or extra-fields");
    }

    private static Duration duration(String text, String token) {
        try {
            if (text.matches("\\d+ms")) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            }
            if (text.matches("\\d+s")) {
                return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
            }
            if (text.matches("\\d+m")) {
                return Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
            }
            Duration d = Duration.parse(text);
            if (!d.isNegative()) {
                return d;
            }
        } catch (DateTimeParseException | NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("fault plan token \"" + token
                + "\": the delay must be like 250ms, 3s, 1m or an ISO-8601 duration, not negative");
    }

    private static double share(String text, String token) {
        try {
            double share = Double.parseDouble(text.strip());
            if (share > 0 && share <= 1) {
                return share;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "fault plan token \"" + token + "\": share must be a number above 0 and at most 1");
    }

    @Override
    public String toString() {
        return "FaultPlan" + rules;
    }

    private static final class Rule {
        final Fault fault;
        final String document;
        final double share;
        private final AtomicLong calls = new AtomicLong();

        Rule(Fault fault, String document, double share) {
            this.fault = fault;
            this.document = document;
            this.share = share;
        }

        boolean hits() {
            long n = calls.getAndIncrement();
            return Math.floor((n + 1) * share) > Math.floor(n * share);
        }

        @Override
        public String toString() {
            return fault + (document != null ? " for one document" : share < 1.0 ? " for share " + share : "");
        }
    }
}
