package dev.cadastro.server.cli;

import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.providers.SmsInbox;
import dev.cadastro.server.cli.admin.StoreOptions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./cadastro admin sms-inbox --phone P}: what the simulated SMS provider "delivered" to a phone,
 * read from the inbox file a running {@code serve} or {@code demo} writes (mode 0600, so only the
 * operating-system user running Cadastro can read it). The API never serves it: it plays the part of
 * the phone, for demos and manual tests.
 */
@Command(
        name = "sms-inbox",
        description = {
            "Show the messages the simulated SMS provider delivered to a phone (newest last), codes included.",
            "Reads <home>/sms-inbox.tsv (--home, default " + StoreOptions.DEFAULT_HOME
                    + "), as serve --sms-dir or demo --home writes it. Times in ISO 8601 with the -03:00 offset (America/Sao_Paulo)."
        })
final class SmsInboxCommand extends CliCommand {
    private static final DateTimeFormatter WHEN = SaoPauloTime.FORMATTER;

    @Option(
            names = "--phone",
            paramLabel = "P",
            required = true,
            description = "The mobile number, with or without +55 and punctuation.")
    String phone;

    /** Its --home is admin's, inherited, so it may come before or after the subcommand. */
    @ParentCommand
    AdminCommand admin;

    /** How many of the latest messages to show. */
    @Mixin
    ListLimit limit = new ListLimit(10, 1000);

    @Override
    public Integer call() {
        Phone to = switch (Phone.parseMobile(phone, "--phone")) {
            case Parsed.Valid<Phone> v -> v.value();
            case Parsed.Invalid<Phone> i -> throw usage(i.violation().message());
        };
        Path file = admin.store().homeFolder("sms-inbox").resolve("sms-inbox.tsv");
        if (!Files.exists(file)) {
            throw new CommandFailure("no SMS inbox at " + file + ": no message was delivered under this home yet"
                    + " (give the --home of the running serve --sms-dir or demo --home)");
        }
        List<SmsInbox.Message> messages = SmsInbox.at(file).read(to, limit.value());
        PrintStream out = out();
        if (messages.isEmpty()) {
            out.println("no message delivered to " + to.formatted());
            return Cli.DONE;
        }
        for (SmsInbox.Message m : messages) {
            out.println(WHEN.format(m.receivedAt()) + "  " + m.reference() + "  " + m.text());
        }
        return Cli.DONE;
    }
}
