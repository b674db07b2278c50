package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks real answers against the OpenAPI 3.1 document the server serves: the status must be one the
 * document lists for the operation, and the body must validate against that response's JSON Schema
 * (draft 2020-12, the dialect of OpenAPI 3.1), with a real validator.
 */
final class OpenApiContract {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode document;
    private final ObjectNode defs;
    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private final ConcurrentHashMap<String, JsonSchema> schemas = new ConcurrentHashMap<>();
    final Set<String> checked = ConcurrentHashMap.newKeySet();

    OpenApiContract(String documentText) {
        try {
            this.document = JSON.readTree(documentText);
            // Component schemas become $defs of one standalone 2020-12 schema per response.
            this.defs = (ObjectNode) JSON.readTree(JSON.writeValueAsString(document.at("/components/schemas"))
                    .replace("#/components/schemas/", "#/$defs/"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode document() {
        return document;
    }

    /** Fails unless the answer is documented for the GET operation and its body matches the schema. */
    void check(String pathTemplate, HttpResponse<String> response) {
        check(pathTemplate, "get", response);
    }

    /** Fails unless the answer is documented for the operation and its body matches the schema. */
    void check(String pathTemplate, String method, HttpResponse<String> response) {
        int status = response.statusCode();
        String operation = method.toUpperCase(java.util.Locale.ROOT) + " " + pathTemplate;
        JsonNode declared = document.at("/paths/" + escape(pathTemplate) + "/" + method + "/responses/" + status);
        assertTrue(
                !declared.isMissingNode(),
                "status " + status + " of " + operation + " is not in the OpenAPI document: " + response.body());
        Set<ValidationMessage> errors = errors(pathTemplate, method, status, response.body());
        assertTrue(
                errors.isEmpty(), operation + " " + status + " breaks its schema: " + errors + "\n" + response.body());
        checked.add(pathTemplate + " " + status);
    }

    /** The schema violations of a GET answer's body with this status; empty when it conforms. */
    Set<ValidationMessage> errors(String pathTemplate, int status, String bodyText) {
        return errors(pathTemplate, "get", status, bodyText);
    }

    /** The schema violations of a body answered with this status; empty when it conforms. */
    Set<ValidationMessage> errors(String pathTemplate, String method, int status, String bodyText) {
        JsonNode declared = document.at("/paths/" + escape(pathTemplate) + "/" + method + "/responses/" + status);
        JsonNode schemaNode = declared.at("/content/application~1json/schema");
        assertTrue(!schemaNode.isMissingNode(), "no JSON schema for " + status + " of " + pathTemplate);
        JsonSchema schema =
                schemas.computeIfAbsent(method + " " + pathTemplate + " " + status, k -> compile(schemaNode));
        try {
            return schema.validate(JSON.readTree(bodyText));
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + bodyText, e);
        }
    }

    private JsonSchema compile(JsonNode responseSchema) {
        try {
            ObjectNode root = JSON.createObjectNode();
            root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            root.set("$defs", defs);
            JsonNode rewritten =
                    JSON.readTree(JSON.writeValueAsString(responseSchema).replace("#/components/schemas/", "#/$defs/"));
            rewritten.properties().forEach(e -> root.set(e.getKey(), e.getValue()));
            return factory.getSchema(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String escape(String path) {
        return path.replace("~", "~0").replace("/", "~1");
    }
}
