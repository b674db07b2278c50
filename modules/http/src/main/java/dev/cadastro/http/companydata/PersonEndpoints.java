package dev.cadastro.http.companydata;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.idempotency.RequestFingerprint;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.person.BatchOutcome;
import dev.cadastro.core.person.JobRead;
import dev.cadastro.core.person.Justification;
import dev.cadastro.core.person.PersonJob;
import dev.cadastro.core.person.PersonLookupService;
import dev.cadastro.core.person.PersonOutcome;
import dev.cadastro.core.person.PersonRequest;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import dev.cadastro.http.internal.Json;
import dev.cadastro.http.internal.JsonBody;
import dev.cadastro.http.internal.JsonTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The person-lookup endpoints, called by {@link CompanyDataApi} after admission and the
 * {@code pessoas:read} scope; the use case ({@link PersonLookupService}) runs the other checks in the
 * contract's order.
 *
 * <ul>
 *   <li>{@code POST /v1/pessoas/consultar} takes {@code {"cpf"|"telefone", "finalidade",
 *       "justificativa"}} and answers the dossier cut to the contracted fields in {@code dados}, with the
 *       justification recorded ({@code justificativa.origem}: {@code enviada}, {@code padrao_conta},
 *       {@code padrao_finalidade}) and, when the sent one was discarded, a warning {@code
 *       JUSTIFICATIVA_INVALIDA} naming the rule in {@code avisos}.
 *   <li>{@code POST /v1/pessoas/consultar-async} answers {@code {"job_id", "status": "pendente"}};
 *       {@code GET /v1/pessoas/jobs/{job_id}} runs it on the first read.
 *   <li>{@code POST /v1/pessoas/lote} takes {@code {"cpfs": [...], "finalidade", "justificativa"}} and
 *       answers one item per position.
 * </ul>
 *
 * <p>The POSTs accept {@code Idempotency-Key}. A retry charges nothing and answers the first answer
 * without {@code dados}: personal data is never stored to be replayed (docs/adr/0024).
 */
final class PersonEndpoints {
    static final String LOOKUP = "POST /v1/pessoas/consultar";
    static final String ASYNC = "POST /v1/pessoas/consultar-async";
    static final String JOB = "GET /v1/pessoas/jobs/{job_id}";
    static final String BATCH = "POST /v1/pessoas/lote";

    private static final Set<String> LOOKUP_FIELDS = Set.of("cpf", "telefone", "finalidade", "justificativa");
    private static final Set<String> BATCH_FIELDS = Set.of("cpfs", "finalidade", "justificativa");

    private final PersonLookupService persons;
    private final IdempotentResponses idempotent;

    PersonEndpoints(PersonLookupService persons, IdempotentResponses idempotent) {
        this.persons = Objects.requireNonNull(persons, "persons");
        this.idempotent = Objects.requireNonNull(idempotent, "idempotent");
    }

    Response lookup(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, LOOKUP, Message.TAKES_SUBJECT_BODY.with());
        PersonRequest body = lookupBody(request);
        RequestFingerprint fingerprint = fingerprint(LOOKUP, body);
        return redactedReplay(request, principal, fingerprint, reference -> {
            PersonOutcome outcome = persons.lookup(principal, body, reference, request.requestId());
            Map<String, Object> tree = new LinkedHashMap<>();
            describe(tree, outcome, request.locale());
            tree.put("creditos_consumidos", outcome.creditsCharged());
            if (outcome.withheld()) {
                tree.put("dados_omitidos", true);
            } else {
                tree.put("dados", outcome.dados());
            }
            return new Answer(tree, outcome.balanceAfter());
        });
    }

    Response createJob(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, ASYNC, Message.TAKES_SUBJECT_BODY.with());
        PersonRequest body = lookupBody(request);
        RequestFingerprint fingerprint = fingerprint(ASYNC, body);
        return idempotent.run(request, principal.accountId(), fingerprint, reference -> {
            PersonJob job = persons.createJob(principal, body);
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("job_id", job.id());
            tree.put("status", job.state().wire());
            tree.put("finalidade", job.purpose().name());
            justification(tree, job.justification(), request.locale());
            tree.put("expira_em", CompanyDataJson.time(job.expiresAt()));
            tree.put("acompanhar_em", "/v1/pessoas/jobs/" + job.id());
            tree.put("creditos_consumidos", 0);
            return Response.json(200, bytes(tree));
        });
    }

    Response readJob(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, JOB, Message.TAKES_NONE.with());
        String id = request.pathParameter("job_id").orElse("");
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("job_id", id);
        return switch (persons.readJob(principal, id, request.requestId())) {
            case JobRead.DeliveredNow now -> {
                PersonOutcome outcome = now.outcome();
                tree.put("status", "concluido");
                tree.put("entregue_em", CompanyDataJson.time(outcome.at()));
                describe(tree, outcome, request.locale());
                tree.put("creditos_consumidos", outcome.creditsCharged());
                tree.put("dados", outcome.dados());
                yield Response.json(200, bytes(tree))
                        .withHeader(CompanyDataApi.BALANCE_HEADER, Long.toString(outcome.balanceAfter()))
                        .withHeader("Cache-Control", "no-store");
            }
            case JobRead.Processing processing -> {
                long seconds = Math.max(1, processing.retryAfter().toSeconds());
                tree.put("status", "processando");
                tree.put("retry_after", seconds);
                yield Response.json(200, bytes(tree)).withHeader("Retry-After", Long.toString(seconds));
            }
            case JobRead.DeliveredBefore before -> {
                tree.put("status", "concluido");
                tree.put("entregue_em", CompanyDataJson.time(before.at()));
                tree.put("creditos_consumidos", 0);
                yield Response.json(200, bytes(tree));
            }
        };
    }

    Response batch(Request request, Principal principal) {
        CompanyDataApi.refuseQuery(request, BATCH, Message.TAKES_CPFS_BODY.with());
        Map<String, Object> body = JsonBody.object(request.body());
        Optional<String> unknown = unknownField(body, BATCH_FIELDS);
        Optional<String> finalidade = text(body.get("finalidade"));
        Optional<String> justificativa = text(body.get("justificativa"));
        Object cpfs = body.get("cpfs");
        List<?> list = cpfs instanceof List<?> l ? l : null;
        if (unknown.isPresent() || (cpfs != null && list == null)) {
            // The shape is checked after the key's checks, which the use case runs first.
            persons.checkBatchAccess(principal, finalidade);
        }
        if (unknown.isPresent()) {
            throw InvalidParameterException.of(
                    unknown.get(),
                    "unknown-field",
                    Message.UNKNOWN_FIELD.with(Texts.quote(unknown.get()), new TreeSet<>(BATCH_FIELDS)));
        }
        if (cpfs != null && list == null) {
            throw InvalidParameterException.of("cpfs", "type", Message.CPFS_TYPE.with());
        }
        Map<String, List<String>> parameters = new TreeMap<>();
        List<String> canonical = new ArrayList<>();
        if (list != null) {
            for (Object o : list) {
                canonical.add(
                        o instanceof String s ? Cpf.parse(s).map(Cpf::canonical).orElse(s) : String.valueOf(o));
            }
        }
        parameters.put("cpfs", canonical);
        finalidade.ifPresent(f -> parameters.put("finalidade", List.of(f)));
        justificativa.ifPresent(j -> parameters.put("justificativa", List.of(j)));
        RequestFingerprint fingerprint = RequestFingerprint.of(BATCH, parameters);
        return redactedReplay(request, principal, fingerprint, reference -> {
            BatchOutcome outcome =
                    persons.batch(principal, list, finalidade, justificativa, reference, request.requestId());
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("finalidade", finalidade.orElse(""));
            justification(tree, outcome.justification(), request.locale());
            tree.put("creditos_consumidos", outcome.creditsCharged());
            List<Object> items = new ArrayList<>();
            for (int i = 0; i < outcome.items().size(); i++) {
                BatchOutcome.Item item = outcome.items().get(i);
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("posicao", i);
                Object sent = list.get(i);
                if (sent instanceof String s) {
                    t.put("cpf", s);
                }
                t.put("status", item.status());
                switch (item) {
                    case BatchOutcome.Item.Concluido done -> {
                        t.put("creditos_consumidos", done.creditsCharged());
                        if (done.withheld()) {
                            t.put("dados_omitidos", true);
                        } else {
                            t.put("dados", done.dados());
                        }
                    }
                    case BatchOutcome.Item.Duplicado dup -> t.put("primeira_posicao", dup.firstPosition());
                    case BatchOutcome.Item.CpfInvalido invalid -> t.put("motivo", invalid.reason());
                    default -> {}
                }
                items.add(t);
            }
            tree.put("itens", items);
            return new Answer(tree, outcome.balanceAfter());
        });
    }

    /** A paid answer: its tree (with {@code dados}) and the balance header. */
    private record Answer(Map<String, Object> tree, long balanceAfter) {}

    @FunctionalInterface
    private interface Paid {
        Answer run(String reference);
    }

    /**
     * Runs through {@link IdempotentResponses}, storing for replays the answer without any {@code dados}
     * (at the top or in items) and without the items' CPFs: a retry answers the receipt, never the
     * personal data again.
     */
    private Response redactedReplay(
            Request request, Principal principal, RequestFingerprint fingerprint, Paid operation) {
        Response[] stored = new Response[1];
        return idempotent.run(
                request,
                principal.accountId(),
                fingerprint,
                reference -> {
                    Answer answer = operation.run(reference);
                    stored[0] = Response.json(200, bytes(withoutDados(answer.tree())))
                            .withHeader(CompanyDataApi.BALANCE_HEADER, Long.toString(answer.balanceAfter()));
                    return Response.json(200, bytes(answer.tree()))
                            .withHeader(CompanyDataApi.BALANCE_HEADER, Long.toString(answer.balanceAfter()))
                            .withHeader("Cache-Control", "no-store");
                },
                response -> stored[0]);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutDados(Map<String, Object> tree) {
        Map<String, Object> copy = new LinkedHashMap<>(tree);
        if (copy.remove("dados") != null) {
            copy.put("dados_omitidos", true);
        }
        if (copy.get("itens") instanceof List<?> items) {
            List<Object> out = new ArrayList<>();
            for (Object item : items) {
                Map<String, Object> receipt = withoutDados((Map<String, Object>) item);
                // The CPF as sent is personal data too: the receipt keeps the position only.
                receipt.remove("cpf");
                out.add(receipt);
            }
            copy.put("itens", out);
        }
        return copy;
    }

    private static void describe(Map<String, Object> tree, PersonOutcome outcome, Locale locale) {
        tree.put("consultado_em", CompanyDataJson.time(outcome.at()));
        justification(tree, outcome.justification(), locale);
        tree.put("campos_liberados", outcome.fields());
    }

    private static void justification(Map<String, Object> tree, Justification j, Locale locale) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("origem", j.source().wire());
        t.put("texto", j.text());
        tree.put("justificativa", t);
        j.discarded().ifPresent(rule -> {
            Map<String, Object> warning = new LinkedHashMap<>();
            warning.put("code", "JUSTIFICATIVA_INVALIDA");
            warning.put("regra", rule.wire());
            warning.put(
                    "mensagem",
                    Message.JUSTIFICATION_DISCARDED
                            .with(rule.text(), j.source().wire())
                            .render(locale));
            tree.put("avisos", List.of(warning));
        });
    }

    /**
     * The body of a single lookup. Its shape problems (unknown fields, wrong types) are handed to the use
     * case as the identifier's problem, so the key's and the purpose's checks answer first.
     */
    private static PersonRequest lookupBody(Request request) {
        Map<String, Object> body = JsonBody.object(request.body());
        Optional<String> unknown = unknownField(body, LOOKUP_FIELDS);
        Optional<LocalizedText> problem =
                unknown.map(name -> Message.UNKNOWN_FIELD.with(Texts.quote(name), new TreeSet<>(LOOKUP_FIELDS)));
        for (String name : List.of("cpf", "telefone", "justificativa")) {
            Object v = body.get(name);
            if (problem.isEmpty() && v != null && !(v instanceof String)) {
                problem = Optional.of(Message.MUST_BE_STRING.with(name));
            }
        }
        return new PersonRequest(
                text(body.get("cpf")),
                text(body.get("telefone")),
                body.get("finalidade") == null ? Optional.empty() : Optional.of(String.valueOf(body.get("finalidade"))),
                text(body.get("justificativa")),
                problem);
    }

    private static Optional<String> unknownField(Map<String, Object> body, Set<String> accepted) {
        return body.keySet().stream().filter(k -> !accepted.contains(k)).findFirst();
    }

    private static Optional<String> text(Object value) {
        return value instanceof String s ? Optional.of(s) : Optional.empty();
    }

    /** The canonical identifier when it parses, so a masked and an unmasked retry are the same request. */
    private static RequestFingerprint fingerprint(String route, PersonRequest body) {
        Map<String, List<String>> p = new TreeMap<>();
        body.cpf()
                .ifPresent(c ->
                        p.put("cpf", List.of(Cpf.parse(c).map(Cpf::canonical).orElse(c))));
        body.telefone()
                .ifPresent(t -> p.put(
                        "telefone", List.of(Phone.parse(t).map(Phone::national).orElse(t))));
        body.finalidade().ifPresent(f -> p.put("finalidade", List.of(f)));
        body.justificativa().ifPresent(j -> p.put("justificativa", List.of(j)));
        return RequestFingerprint.of(route, p);
    }

    private static byte[] bytes(Map<String, Object> tree) {
        return Json.bytes(1024, g -> JsonTree.write(g, tree));
    }
}
