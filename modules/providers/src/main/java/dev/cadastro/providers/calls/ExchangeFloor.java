package dev.cadastro.providers.calls;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The simulated contact center: its agents and its queues with their result catalogues. Fixed, so the
 * demo can print filter values that always match; the seed only decides which calls happen.
 */
final class ExchangeFloor {
    private ExchangeFloor() {}

    /** An agent: {@code id} is null for those who left the registry (their login stays on their calls). */
    record Agent(String login, String id) {
        /** The name as the exchange formats it from the login: words capitalised, nothing recovered. */
        String name() {
            return id == null ? null : formatName(login);
        }
    }

    /** A queue; a receptive one has no catalogue, so its calls carry no result code. */
    record Queue(String name, Map<String, String> codes, List<String> descriptions) {
        boolean receptive() {
            return codes.isEmpty();
        }

        String code(String description) {
            return codes.get(description);
        }
    }

    static final List<Agent> AGENTS = List.of(
            new Agent("joao.silva", "1001"),
            new Agent("maria.aparecida.souza", "1002"),
            new Agent("jose.conceicao", "1003"),
            new Agent("ana.paula.oliveira", "1004"),
            new Agent("antonio.carlos.pereira", "1005"),
            new Agent("francisca.lima", "1006"),
            new Agent("marcos.vinicius.rocha", "1007"),
            new Agent("juliana.goncalves", "1008"),
            new Agent("paulo.henrique.dias", "1009"),
            new Agent("fernanda.assuncao", "1010"),
            new Agent("luiz.fernando.alves", "1011"),
            new Agent("patricia.simoes", "1012"),
            new Agent("rafael.araujo", "1013"),
            new Agent("aline.costa", "1014"),
            new Agent("joaopedro.santos", "1015"),
            new Agent("mariajose.nunes", "1016"),
            new Agent("bruno.melo", "1017"),
            new Agent("ricardo.de.andrade", "1018"),
            // Left the registry: their calls carry no agent id and no name.
            new Agent("carla.brandao", null),
            new Agent("sergio.magalhaes", null));

    private static final String CALL_BACK = "Retornar ligação";
    private static final String SALE = "Venda realizada";
    private static final String NOT_INTERESTED = "Cliente sem interesse";
    private static final String WRONG_NUMBER = "Número errado";

    /** Outbound queues, each with its own codes: the same description has a different code in each. */
    static final List<Queue> ACTIVE = List.of(
            active(
                    "vendas",
                    SALE,
                    "V01",
                    NOT_INTERESTED,
                    "V02",
                    CALL_BACK,
                    "V03",
                    WRONG_NUMBER,
                    "V04",
                    "Já é cliente",
                    "V05"),
            active(
                    "cobranca",
                    "Acordo fechado",
                    "C10",
                    "Promessa de pagamento",
                    "C11",
                    CALL_BACK,
                    "C12",
                    WRONG_NUMBER,
                    "C13",
                    "Recusa de acordo",
                    "C14"),
            active("retencao", "Cliente retido", "R1", "Cancelamento confirmado", "R2", CALL_BACK, "R3", SALE, "R4"),
            active(
                    "pesquisa",
                    "Pesquisa concluída",
                    "501",
                    NOT_INTERESTED,
                    "502",
                    CALL_BACK,
                    "503",
                    WRONG_NUMBER,
                    "504"));

    /** Receptive queues: no catalogue, the agent types a result from a short list the floor agreed on. */
    static final List<Queue> RECEPTIVE = List.of(
            receptive("sac", "Dúvida esclarecida", "Reclamação registrada", "Segunda via enviada", "Ligação caiu"),
            receptive(
                    "suporte", "Dúvida esclarecida", "Transferido para outro setor", "Chamado aberto", "Ligação caiu"));

    private static Queue active(String name, String... pairs) {
        Map<String, String> codes = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            codes.put(pairs[i], pairs[i + 1]);
        }
        return new Queue(name, Map.copyOf(codes), List.copyOf(codes.keySet()));
    }

    private static Queue receptive(String name, String... descriptions) {
        return new Queue(name, Map.of(), List.of(descriptions));
    }

    /** {@code maria.aparecida.souza} becomes {@code Maria Aparecida Souza}; {@code joaopedro} stays one word. */
    static String formatName(String login) {
        StringBuilder name = new StringBuilder(login.length());
        for (String word : login.split("[._-]+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (!name.isEmpty()) {
                name.append(' ');
            }
            name.append(word.substring(0, 1).toUpperCase(Locale.ROOT))
                    .append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return name.toString();
    }
}
