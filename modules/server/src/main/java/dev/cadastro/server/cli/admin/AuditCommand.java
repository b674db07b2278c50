package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.person.AuditRecord;
import dev.cadastro.server.cli.ListLimit;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code admin audit}: the person-lookup audit trail of an account. */
@Command(
        name = "audit",
        description = {
            "List or export an account's person-lookup audit trail for a period: account, key, purpose,",
            "justification, the keyed hash of the CPF or phone (never the clear value), fields released,",
            "request id and time. Days are calendar days in America/Sao_Paulo."
        })
public final class AuditCommand extends AccountSubcommand {
    /** How the audit trail is written. */
    enum Format {
        table,
        csv,
        jsonl
    }

    @Option(names = "--from", paramLabel = "YYYY-MM-DD", required = true, description = "First day, inclusive.")
    String from;

    @Option(names = "--to", paramLabel = "YYYY-MM-DD", description = "Last day, inclusive (default: the --from day).")
    String to;

    @Option(
            names = "--format",
            paramLabel = "F",
            defaultValue = "table",
            description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--out", paramLabel = "FILE", description = "Write to this file instead of the terminal.")
    Path file;

    @Mixin
    ListLimit limit = new ListLimit(100_000, 10_000_000);

    @Override
    void run(Store store, PrintStream out) {
        LocalDate first = day("--from", from);
        LocalDate last = to == null ? first : day("--to", to);
        if (last.isBefore(first)) {
            throw usage("--to " + last + " is before --from " + first);
        }
        int most = limit.value();
        AccountId id = account(store);
        Instant start = first.atStartOfDay(CostRules.ZONE).toInstant();
        Instant end = last.plusDays(1).atStartOfDay(CostRules.ZONE).toInstant();
        // One more than asked, to tell an export that was cut from one that is complete.
        List<AuditRecord> rows = store.personAudit().list(id, start, end, most + 1);
        boolean cut = rows.size() > most;
        if (cut) {
            rows = rows.subList(0, most);
            err().println("account " + id + ": more than " + most + " audit rows from " + first + " to " + last
                    + "; only the first " + most + " are shown: raise --limit or narrow --from/--to");
        }
        if (file == null) {
            write(out, rows);
        } else {
            try (PrintStream f = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
                write(f, rows);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
            out.println("account " + id + ": " + rows.size() + " audit rows from " + first + " to " + last
                    + " written to " + file);
        }
    }

    private LocalDate day(String flag, String text) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw usage(flag + " '" + text + "' must be a date YYYY-MM-DD");
        }
    }

    private void write(PrintStream out, List<AuditRecord> rows) {
        switch (format) {
            case table -> {
                out.printf(
                        "%-8s %-25s %-12s %-24s %-8s %-17s %s%n",
                        "SEQ", "WHEN", "KEY", "PURPOSE", "SUBJECT", "HASH", "FIELDS / JUSTIFICATION");
                for (AuditRecord r : rows) {
                    out.printf(
                            "%-8d %-25s %-12s %-24s %-8s %-17s %s / %s%n",
                            r.id(),
                            WHEN.format(r.at()),
                            r.keyPrefix(),
                            r.purpose(),
                            r.subjectKind(),
                            r.subjectHash().substring(0, 16) + "…",
                            String.join(",", r.fields()),
                            r.justification());
                }
                out.println(rows.size() + " rows");
            }
            case csv -> {
                out.println("seq,time,account,key,purpose,justification_source,justification,subject_kind,"
                        + "hash_key_id,subject_hash,fields,request_id,charge_key");
                for (AuditRecord r : rows) {
                    out.println(String.join(
                            ",",
                            Long.toString(r.id()),
                            WHEN.format(r.at()),
                            r.account().toString(),
                            csv(r.keyPrefix()),
                            r.purpose(),
                            r.justificationSource().toLowerCase(Locale.ROOT),
                            csv(r.justification()),
                            r.subjectKind(),
                            csv(r.subjectHashKeyId()),
                            r.subjectHash(),
                            csv(String.join(";", r.fields())),
                            csv(r.requestId()),
                            csv(r.chargeKey())));
                }
            }
            case jsonl -> {
                for (AuditRecord r : rows) {
                    out.println("{\"seq\":" + r.id() + ",\"time\":" + json(WHEN.format(r.at())) + ",\"account\":"
                            + r.account() + ",\"key\":" + json(r.keyPrefix()) + ",\"purpose\":" + json(r.purpose())
                            + ",\"justification_source\":"
                            + json(r.justificationSource().toLowerCase(Locale.ROOT))
                            + ",\"justification\":" + json(r.justification()) + ",\"subject_kind\":"
                            + json(r.subjectKind()) + ",\"hash_key_id\":" + json(r.subjectHashKeyId())
                            + ",\"subject_hash\":" + json(r.subjectHash()) + ",\"fields\":["
                            + String.join(
                                    ",",
                                    r.fields().stream().map(AuditCommand::json).toList()) + "],\"request_id\":"
                            + json(r.requestId()) + ",\"charge_key\":" + json(r.chargeKey()) + "}");
                }
            }
        }
    }

    private static String csv(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }

    private static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
