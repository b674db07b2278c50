package dev.cadastro.core.calls.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DestinationPolicyTest {
    /** A resolver with fixed answers, so a public-looking name can resolve to loopback. */
    private static DestinationPolicy.Resolver names(Map<String, List<String>> answers) {
        return host -> {
            List<String> a = answers.get(host);
            if (a == null) {
                return List.of(InetAddress.getByName(host)); // literals only: no lookup for an address
            }
            List<InetAddress> out = new java.util.ArrayList<>();
            for (String s : a) {
                out.add(InetAddress.getByName(s));
            }
            return out;
        };
    }

    private static final DestinationPolicy.Resolver RESOLVER = names(Map.of(
            "crm.example.com", List.of("8.8.4.4"),
            "rebind.example.com", List.of("8.8.4.4", "127.0.0.1"),
            "inside.example.com", List.of("10.1.2.3")));

    @Test
    void requiresHttpsUnlessHttpIsAllowed() {
        DestinationPolicy strict =
                DestinationPolicy.builder().resolver(RESOLVER).build();
        assertEquals(
                1, strict.check(URI.create("https://crm.example.com/ligacoes")).size());
        var e = assertThrows(
                DestinationRefusedException.class, () -> strict.check(URI.create("http://crm.example.com/x")));
        assertTrue(e.getMessage().contains("--allow-http"), e.getMessage());
        assertThrows(DestinationRefusedException.class, () -> strict.check(URI.create("ftp://crm.example.com/x")));
        DestinationPolicy http =
                DestinationPolicy.builder().resolver(RESOLVER).allowHttp(true).build();
        assertEquals(1, http.check(URI.create("http://crm.example.com/x")).size());
    }

    @Test
    void refusesPrivateLinkLocalSharedAndUniqueLocalAddressesUnlessAllowed() {
        DestinationPolicy strict =
                DestinationPolicy.builder().resolver(RESOLVER).build();
        for (String host : List.of(
                "10.0.0.1",
                "172.16.5.4",
                "172.31.255.255",
                "192.168.1.1",
                "100.64.0.1",
                "169.254.169.254",
                "[fe80::1]",
                "[fd00::1]",
                "0.0.0.0",
                "[::ffff:10.0.0.1]",
                "inside.example.com")) {
            var e = assertThrows(
                    DestinationRefusedException.class,
                    () -> strict.check(URI.create("https://" + host + "/hook")),
                    host);
            assertTrue(e.getMessage().contains("private"), e.getMessage());
        }
        DestinationPolicy open = DestinationPolicy.builder()
                .resolver(RESOLVER)
                .allowPrivate(true)
                .build();
        assertEquals(1, open.check(URI.create("https://10.0.0.1/hook")).size());
        assertEquals(1, open.check(URI.create("https://127.0.0.1/hook")).size());
        // Public neighbours of the private ranges pass.
        assertEquals(1, strict.check(URI.create("https://172.32.0.1/hook")).size());
        assertEquals(1, strict.check(URI.create("https://100.128.0.1/hook")).size());
    }

    @Test
    void refusesSpecialPurposeRangesUnlessPrivateIsAllowed() {
        DestinationPolicy strict =
                DestinationPolicy.builder().resolver(RESOLVER).build();
        DestinationPolicy open = DestinationPolicy.builder()
                .resolver(RESOLVER)
                .allowPrivate(true)
                .build();
        for (String host : List.of(
                "0.1.2.3",
                "192.0.0.8",
                "192.0.2.1",
                "192.88.99.1",
                "198.18.0.1",
                "198.19.255.254",
                "198.51.100.7",
                "203.0.113.9",
                "240.0.0.1",
                "255.255.255.255",
                "[2001:db8::1]",
                "[100::1]",
                "[64:ff9b:1::a00:1]")) {
            var e = assertThrows(
                    DestinationRefusedException.class,
                    () -> strict.check(URI.create("https://" + host + "/hook")),
                    host);
            assertTrue(e.getMessage().contains("private"), e.getMessage());
            assertEquals(1, open.check(URI.create("https://" + host + "/hook")).size(), host);
        }
        // Public neighbours pass.
        for (String host : List.of("198.20.0.1", "198.17.255.255", "192.0.1.1", "203.0.114.1")) {
            assertEquals(
                    1, strict.check(URI.create("https://" + host + "/hook")).size(), host);
        }
    }

    @Test
    void judgesAnIpv6AddressThatCarriesAnIpv4AddressAsThatAddress() {
        DestinationPolicy strict =
                DestinationPolicy.builder().resolver(RESOLVER).build();
        DestinationPolicy loopback = DestinationPolicy.builder()
                .resolver(RESOLVER)
                .allowLoopback(true)
                .build();
        // NAT64, IPv4-compatible, 6to4 and Teredo forms of 10.0.0.1 and of 127.0.0.1.
        for (String host : List.of(
                "[64:ff9b::a00:1]", "[::10.0.0.1]", "[2002:a00:1::1]", "[2001:0:4136:e378:8000:63bf:f5ff:fffe]")) {
            var e = assertThrows(
                    DestinationRefusedException.class,
                    () -> strict.check(URI.create("https://" + host + "/hook")),
                    host);
            assertTrue(e.getMessage().contains("private"), e.getMessage());
        }
        for (String host : List.of("[64:ff9b::7f00:1]", "[::127.0.0.1]", "[2002:7f00:1::1]")) {
            var e = assertThrows(
                    DestinationRefusedException.class,
                    () -> strict.check(URI.create("https://" + host + "/hook")),
                    host);
            assertTrue(e.getMessage().contains("loopback"), e.getMessage());
            assertEquals(
                    1, loopback.check(URI.create("https://" + host + "/hook")).size(), host);
        }
        // The same forms of a public address pass.
        for (String host : List.of("[64:ff9b::808:808]", "[2002:808:808::1]")) {
            assertEquals(
                    1, strict.check(URI.create("https://" + host + "/hook")).size(), host);
        }
    }

    @Test
    void aRefusalNamesTheSchemeHostAndPortButNeverThePathOrQuery() {
        DestinationPolicy strict =
                DestinationPolicy.builder().resolver(RESOLVER).build();
        for (String url : List.of(
                "http://crm.example.com:8080/hook/s3cr3t?token=s3cr3t",
                "ftp://crm.example.com/s3cr3t?token=s3cr3t",
                "https://10.0.0.1:8443/s3cr3t?token=s3cr3t")) {
            var e = assertThrows(DestinationRefusedException.class, () -> strict.check(URI.create(url)), url);
            assertTrue(!e.getMessage().contains("s3cr3t"), e.getMessage());
        }
        var e = assertThrows(
                DestinationRefusedException.class,
                () -> strict.check(URI.create("http://crm.example.com:8080/hook/s3cr3t")));
        assertTrue(e.getMessage().contains("http://crm.example.com:8080"), e.getMessage());
    }

    @Test
    void refusesANameThatResolvesToLoopbackAmongOtherAddressesUnlessLoopbackIsAllowed() {
        DestinationPolicy strict =
                DestinationPolicy.builder().resolver(RESOLVER).build();
        var e = assertThrows(
                DestinationRefusedException.class, () -> strict.check(URI.create("https://rebind.example.com/h")));
        assertTrue(e.getMessage().contains("127.0.0.1") && e.getMessage().contains("loopback"), e.getMessage());
        assertThrows(DestinationRefusedException.class, () -> strict.check(URI.create("https://127.0.0.1/h")));
        assertThrows(DestinationRefusedException.class, () -> strict.check(URI.create("https://[::1]/h")));
        DestinationPolicy loopback = DestinationPolicy.builder()
                .resolver(RESOLVER)
                .allowLoopback(true)
                .build();
        assertEquals(
                2, loopback.check(URI.create("https://rebind.example.com/h")).size());
        // Loopback alone does not open the private ranges.
        assertThrows(DestinationRefusedException.class, () -> loopback.check(URI.create("https://10.0.0.1/h")));
    }

    @Test
    void anExemptHostAndPortSkipsTheSchemeAndAddressChecksAndNothingElseDoes() {
        DestinationPolicy demo = DestinationPolicy.builder()
                .resolver(RESOLVER)
                .exempt(java.util.Set.of(DestinationPolicy.hostAndPort(URI.create("http://127.0.0.1:8123/ligacoes"))))
                .build();
        assertEquals(1, demo.check(URI.create("http://127.0.0.1:8123/outro")).size());
        assertEquals(1, demo.check(URI.create("https://127.0.0.1:8123/x")).size());
        for (String url : List.of(
                "http://127.0.0.1:8124/ligacoes",
                "http://localhost:8123/ligacoes",
                "https://127.0.0.1/ligacoes",
                "http://crm.example.com/x",
                "https://10.0.0.1:8123/x",
                "http://user@127.0.0.1:8123/x")) {
            assertThrows(DestinationRefusedException.class, () -> demo.check(URI.create(url)), url);
        }
        assertEquals("::1:80", DestinationPolicy.hostAndPort(URI.create("http://[::1]/")));
        assertEquals("crm.example.com:443", DestinationPolicy.hostAndPort(URI.create("https://CRM.example.com/")));
    }

    @Test
    void refusesMulticastAlwaysAndNamesThatDoNotResolve() {
        DestinationPolicy open = DestinationPolicy.builder()
                .resolver(host -> {
                    if (host.equals("nowhere.invalid")) {
                        throw new UnknownHostException(host);
                    }
                    return List.of(InetAddress.getByName(host));
                })
                .allowPrivate(true)
                .build();
        assertThrows(DestinationRefusedException.class, () -> open.check(URI.create("https://224.0.0.1/h")));
        assertThrows(DestinationRefusedException.class, () -> open.check(URI.create("https://nowhere.invalid/h")));
        assertThrows(DestinationRefusedException.class, () -> open.check(URI.create("https://user:pw@1.1.1.1/h")));
    }
}
