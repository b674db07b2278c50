package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine does not depend on the server that mounts it: no class the engine is built from names
 * {@code CadastroServer} in its compiled form (its constant pool), so the dependency runs one way only.
 */
class EngineWiringTest {
    private static final String SERVER = "dev/cadastro/server/CadastroServer";

    @Test
    void theEngineAndItsConfigurationNeverReferToTheServer() throws IOException {
        for (Class<?> top : List.of(
                CadastroEngine.class,
                EngineConfig.class,
                CompanyDataRoutes.class,
                MailingOptions.class,
                PushService.class,
                ProviderOptions.class,
                SmsOptions.class,
                CallsSecrets.class)) {
            for (Class<?> c : top.getNestMembers()) {
                String name = c.getName().substring(c.getPackageName().length() + 1) + ".class";
                try (InputStream in = c.getResourceAsStream(name)) {
                    assertNotNull(in, name);
                    String bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                    assertFalse(bytes.contains(SERVER), c.getName() + " refers to " + SERVER);
                }
            }
        }
    }
}
