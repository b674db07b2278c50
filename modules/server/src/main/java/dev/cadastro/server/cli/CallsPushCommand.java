package dev.cadastro.server.cli;

import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.push.DeliveryState;
import dev.cadastro.core.calls.push.DeliveryStatus;
import dev.cadastro.core.calls.push.DestinationPolicy;
import dev.cadastro.core.calls.push.DestinationRefusedException;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.providers.JdkWebhookSender;
import dev.cadastro.store.Store;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./cadastro admin calls-push ...}: an integration's push destination and its
 * deliveries. The destination is checked when set with the same address rules the workers apply
 * before every attempt; a generated signing secret is printed once; {@code show} masks the header
 * value and the secret.
 */
@Command(
        name = "calls-push",
        synopsisSubcommandLabel = "SUBCOMMAND",
        description = "The push of each ready call to an integration's endpoint: destination and deliveries.",
        subcommands = {
            HelpCommand.class,
            CallsPushCommand.Set.class,
            CallsPushCommand.Show.class,
            CallsPushCommand.Pause.class,
            CallsPushCommand.Resume.class,
            CallsPushCommand.Replay.class,
            CallsPushCommand.Deliveries.class
        })
final class CallsPushCommand extends AdminGroup {
    /** One calls-push subcommand on an existing integration: opens the store, runs, closes it. */
    abstract static class OnIntegration extends CliCommand {
        @ParentCommand
        CallsPushCommand parent;

        @Option(names = "--integration", paramLabel = "NAME", required = true, description = "The integration's name.")
        String integrationName;

        @Override
        public final Integer call() {
            try (Store opened = parent.open()) {
                Integration integration = opened.pushDestinations()
                        .integration(integrationName)
                        .orElseThrow(() -> new CommandFailure("integration '" + integrationName
                                + "' does not exist (./cadastro admin calls-token create --integration NAME"
                                + " creates it)"));
                run(opened, integration, out());
            }
            return Cli.DONE;
        }

        abstract void run(Store store, Integration integration, PrintStream out);

        Clock clock() {
            return parent.clock();
        }

        PushDestination destination(Store store, Integration integration) {
            return store.pushDestinations()
                    .get(integration.id())
                    .orElseThrow(() -> new CommandFailure("integration '" + integration.name()
                            + "' has no push destination (./cadastro admin calls-push set sets one)"));
        }
    }

    @Command(
            name = "set",
            description = "Set (create or replace) the integration's push destination, checked now: https and a"
                    + " public address unless allowed. A destination that exists keeps its paused or enabled"
                    + " state and its secret unless a flag says otherwise; what changed is printed.")
    static final class Set extends OnIntegration {
        @Option(names = "--url", paramLabel = "URL", required = true, description = "Where each call is POSTed.")
        String url;

        @Option(
                names = "--header",
                paramLabel = "NAME[:VALUE]",
                required = true,
                description = "The authentication header the client chose, e.g. 'Authorization:Bearer abc'; only"
                        + " its NAME with --header-value-env or --header-value-stdin, so the value stays out of"
                        + " the process list and the shell history.")
        String header;

        @Option(
                names = "--header-value-env",
                paramLabel = "VAR",
                description = "Read the header's value from this environment variable.")
        String headerValueEnv;

        @Option(names = "--header-value-stdin", description = "Read the header's value from the first line of stdin.")
        boolean headerValueStdin;

        @Option(
                names = "--resend-reclassified",
                paramLabel = "yes|no",
                defaultValue = "yes",
                description = "Deliver a call again when it is reclassified (default ${DEFAULT-VALUE}).")
        String resend;

        @Option(
                names = "--secret",
                paramLabel = "whsec_...",
                description = "Sign deliveries with this secret (prefer --secret-env or --secret-stdin).")
        String secret;

        @Option(
                names = "--secret-env",
                paramLabel = "VAR",
                description = "Sign deliveries with the secret in this environment variable.")
        String secretEnv;

        @Option(names = "--secret-stdin", description = "Sign deliveries with the secret on the first line of stdin.")
        boolean secretStdin;

        @Option(
                names = "--generate-secret",
                description = "Sign deliveries with a new random secret, printed this once.")
        boolean generateSecret;

        @Option(names = "--no-secret", description = "Stop signing deliveries (drop the secret).")
        boolean noSecret;

        @Option(
                names = "--enabled",
                paramLabel = "yes|no",
                description = "Deliver (yes) or hold deliveries (no, as pause); default: a new destination is"
                        + " enabled, an existing one keeps its state.")
        String enabled;

        @Option(names = "--allow-http", description = "Accept a plain-http URL (the server needs --push-allow-http).")
        boolean allowHttp;

        @Option(
                names = "--allow-private",
                description = "Accept a private, link-local or loopback address (the server needs"
                        + " --push-allow-private).")
        boolean allowPrivate;

        @Override
        void run(Store store, Integration integration, PrintStream out) {
            int secretSources = (secret != null ? 1 : 0)
                    + (secretEnv != null ? 1 : 0)
                    + (secretStdin ? 1 : 0)
                    + (generateSecret ? 1 : 0)
                    + (noSecret ? 1 : 0);
            if (secretSources > 1) {
                throw usage("give one of --secret, --secret-env, --secret-stdin, --generate-secret and --no-secret");
            }
            if (secretStdin && headerValueStdin) {
                throw usage("stdin holds one value: give --secret-stdin or --header-value-stdin, not both");
            }
            boolean resendReclassified = yesNo("--resend-reclassified", resend);
            int colon = header.indexOf(':');
            boolean valueElsewhere = headerValueEnv != null || headerValueStdin;
            if (headerValueEnv != null && headerValueStdin) {
                throw usage("give --header-value-env or --header-value-stdin, not both");
            }
            if (valueElsewhere ? colon >= 0 : colon < 1) {
                throw usage(
                        valueElsewhere
                                ? "--header must be the NAME alone when its value comes from --header-value-env or"
                                        + " --header-value-stdin"
                                : "--header must be NAME:VALUE, e.g. 'Authorization:Bearer abc'");
            }
            String headerName = (valueElsewhere ? header : header.substring(0, colon)).strip();
            String headerValue = headerValueEnv != null
                    ? env("--header-value-env", headerValueEnv)
                    : headerValueStdin ? stdin("--header-value-stdin") : header.substring(colon + 1);
            URI uri;
            try {
                uri = new URI(url);
            } catch (URISyntaxException e) {
                throw usage("--url " + e.getMessage());
            }
            Optional<PushDestination> before = store.pushDestinations().get(integration.id());
            String key;
            if (generateSecret) {
                key = PushDestination.newSecret(new SecureRandom());
            } else if (noSecret) {
                key = null;
            } else if (secret != null) {
                key = secret;
            } else if (secretEnv != null) {
                key = env("--secret-env", secretEnv);
            } else if (secretStdin) {
                key = stdin("--secret-stdin");
            } else {
                key = before.map(PushDestination::signingSecret).orElse(null);
            }
            boolean on = enabled != null
                    ? yesNo("--enabled", enabled)
                    : before.map(PushDestination::enabled).orElse(true);
            PushDestination d;
            try {
                JdkWebhookSender.checkHeader(headerName, headerValue.strip());
                d = new PushDestination(integration, uri, headerName, headerValue.strip(), resendReclassified, key, on);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
            try {
                DestinationPolicy.builder()
                        .allowHttp(allowHttp)
                        .allowPrivate(allowPrivate)
                        .resolver(JdkWebhookSender.RESOLVER)
                        .build()
                        .check(uri);
            } catch (DestinationRefusedException e) {
                throw new CommandFailure(e.getMessage());
            }
            store.pushDestinations().set(d, clock().instant());
            out.println("integration " + integration.name() + ": push to " + uri + " with header "
                    + d.headerName() + ", reclassified calls " + (resendReclassified ? "resent" : "not resent")
                    + ", " + (key == null ? "unsigned" : "signed") + ", " + (on ? "enabled" : "paused"));
            out.println(before.map(b -> "changed: " + changes(b, d)).orElse("created"));
            if (generateSecret) {
                out.println("signing secret (shown once; Standard Webhooks, verify webhook-signature with it): " + key);
            }
        }

        /** What differs between the destination before and after, by name; values are never printed. */
        private static String changes(PushDestination before, PushDestination after) {
            List<String> changed = new ArrayList<>();
            if (!before.url().equals(after.url())) {
                changed.add("url");
            }
            if (!before.headerName().equals(after.headerName())) {
                changed.add("header name");
            }
            if (!before.headerValue().equals(after.headerValue())) {
                changed.add("header value");
            }
            if (before.resendReclassified() != after.resendReclassified()) {
                changed.add("resend reclassified");
            }
            if (!Objects.equals(before.signingSecret(), after.signingSecret())) {
                changed.add(
                        after.signingSecret() == null
                                ? "secret removed"
                                : before.signingSecret() == null ? "secret added" : "secret replaced");
            }
            if (before.enabled() != after.enabled()) {
                changed.add(after.enabled() ? "enabled" : "paused");
            }
            return changed.isEmpty() ? "nothing" : String.join(", ", changed);
        }

        private boolean yesNo(String option, String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "yes", "sim" -> true;
                case "no", "nao", "não" -> false;
                default -> throw usage(option + " " + value + " must be yes or no");
            };
        }

        private String env(String option, String variable) {
            String value = System.getenv(variable);
            if (value == null || value.isBlank()) {
                throw usage(option + " " + variable + ": the environment variable is not set or empty");
            }
            return value.strip();
        }

        private String stdin(String option) {
            try {
                String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                if (line == null || line.isBlank()) {
                    throw usage(option + ": stdin had no value on its first line");
                }
                return line.strip();
            } catch (IOException e) {
                throw new CommandFailure(option + ": reading stdin failed: " + e.getMessage());
            }
        }
    }

    @Command(name = "show", description = "Show the integration's push destination (header value and secret masked).")
    static final class Show extends OnIntegration {
        @Override
        void run(Store store, Integration integration, PrintStream out) {
            PushDestination d = destination(store, integration);
            out.println("integration:          " + integration.name());
            out.println("url:                  " + d.url());
            out.println("header:               " + d.headerName() + ": " + d.maskedHeaderValue());
            out.println("resend reclassified:  " + (d.resendReclassified() ? "yes" : "no"));
            out.println("signing secret:       " + d.maskedSecret());
            out.println("state:                " + (d.enabled() ? "enabled" : "paused"));
        }
    }

    @Command(name = "pause", description = "Pause deliveries: they wait, pending, until resume.")
    static final class Pause extends OnIntegration {
        @Override
        void run(Store store, Integration integration, PrintStream out) {
            destination(store, integration);
            store.pushDestinations().pause(integration.id(), clock().instant());
            out.println("integration " + integration.name() + ": push paused");
        }
    }

    @Command(name = "resume", description = "Resume deliveries.")
    static final class Resume extends OnIntegration {
        @Override
        void run(Store store, Integration integration, PrintStream out) {
            destination(store, integration);
            store.pushDestinations().resume(integration.id(), clock().instant());
            out.println("integration " + integration.name() + ": push resumed");
        }
    }

    @Command(
            name = "replay",
            description = "Send a failed (falhou) delivery again with a fresh set of attempts and the same"
                    + " webhook-id: one by --delivery ID, or every failed one with --failed.")
    static final class Replay extends OnIntegration {
        @Option(names = "--delivery", paramLabel = "ID", description = "The delivery, as deliveries lists it.")
        Long delivery;

        @Option(names = "--failed", description = "Every falhou delivery of the integration.")
        boolean failed;

        @Override
        void run(Store store, Integration integration, PrintStream out) {
            if ((delivery != null) == failed) {
                throw usage("give --delivery ID or --failed");
            }
            Instant now = clock().instant();
            if (failed) {
                int n = store.deliveryQueue().replayFailed(integration.id(), now);
                out.println("integration " + integration.name() + ": " + n + " failed deliveries queued again");
                return;
            }
            Optional<DeliveryStatus> d = store.deliveryQueue().find(delivery);
            if (d.isEmpty() || !d.get().integration().equals(integration.name())) {
                throw new CommandFailure("integration '" + integration.name() + "' has no delivery " + delivery);
            }
            if (!store.deliveryQueue().replay(delivery, now)) {
                throw new CommandFailure("delivery " + delivery + " is "
                        + d.get().state().wire() + ", not falhou; only a failed delivery is replayed");
            }
            out.println("delivery " + delivery + " (call " + d.get().callId() + ", "
                    + d.get().webhookId() + ") queued again");
        }
    }

    @Command(name = "deliveries", description = "The integration's deliveries, newest first.")
    static final class Deliveries extends OnIntegration {
        @Option(names = "--state", paramLabel = "STATE", description = "Only pendente, entregue or falhou.")
        String state;

        @Mixin
        ListLimit limit = new ListLimit(50, 10_000);

        @Override
        void run(Store store, Integration integration, PrintStream out) {
            Optional<DeliveryState> s;
            try {
                s = Optional.ofNullable(state).map(DeliveryState::ofWire);
            } catch (IllegalArgumentException e) {
                throw usage("--state " + e.getMessage());
            }
            List<DeliveryStatus> all = store.deliveryQueue().list(integration.id(), s, limit.value());
            out.printf(
                    Locale.ROOT,
                    "%-8s %-24s %-10s %-14s %-9s %-25s %-25s %s%n",
                    "ID",
                    "CALL",
                    "STATE",
                    "REASON",
                    "ATTEMPTS",
                    "READY",
                    "NEXT/DELIVERED",
                    "LAST");
            for (DeliveryStatus d : all) {
                Instant when = d.deliveredAt().orElse(d.nextAttemptAt());
                String last = d.lastStatus().map(x -> "HTTP " + x).orElse("")
                        + d.lastError()
                                .filter(e -> !e.startsWith("HTTP"))
                                .map(e -> (d.lastStatus().isPresent() ? " " : "") + e)
                                .orElse("");
                out.printf(
                        Locale.ROOT,
                        "%-8d %-24s %-10s %-14s %-9d %-25s %-25s %s%n",
                        d.id(),
                        d.callId(),
                        d.state().wire(),
                        d.reason().wire(),
                        d.attempts(),
                        WHEN.format(d.readyAt()),
                        WHEN.format(when),
                        last);
            }
        }
    }
}
