package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.error.Service;
import org.junit.jupiter.api.Test;

class RouterTest {
    private static final Handler OK = r -> Response.of(200, "text/plain", new byte[0]);

    private static Request get(String path) {
        return Request.of("GET", path, null, Headers.empty(), null, "rid", null, Limits.defaults());
    }

    @Test
    void refusesARouteRegisteredTwice() {
        Router.Builder b = Router.builder(Service.COMPANY_DATA).get("/v1/a/{id}", OK);
        assertThrows(IllegalArgumentException.class, () -> b.get("/v1/a/{id}", OK));
    }

    @Test
    void refusesMalformedTemplates() {
        Router.Builder b = Router.builder(Service.COMPANY_DATA);
        assertThrows(IllegalArgumentException.class, () -> b.get("v1/a", OK));
        assertThrows(IllegalArgumentException.class, () -> b.get("/v1/{a}/{a}", OK));
        assertThrows(IllegalArgumentException.class, () -> b.get("/v1/x{a}", OK));
        assertThrows(IllegalArgumentException.class, () -> b.get("/v1/%41", OK));
    }

    @Test
    void decodesPathParametersStrictly() {
        Router router = Router.builder(Service.COMPANY_DATA)
                .get(
                        "/v1/a/{id}",
                        r -> Response.of(
                                200,
                                "text/plain",
                                r.pathParameter("id").orElseThrow().getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .build();
        assertEquals("a b+c", router.handle(get("/v1/a/a%20b+c")).bodyText());
        Response bad = router.handle(get("/v1/a/%C3%28"));
        assertEquals(422, bad.status());
    }

    @Test
    void addsTheRequestIdToEveryAnswer() {
        Router router = Router.builder(Service.COMPANY_DATA).get("/v1/a", OK).build();
        assertEquals(
                "rid",
                router.handle(get("/v1/a")).headers().first("X-Request-Id").orElseThrow());
        assertEquals(
                "rid",
                router.handle(get("/v1/b")).headers().first("X-Request-Id").orElseThrow());
    }

    @Test
    void matchesNothingForAnEmptySegment() {
        Router router =
                Router.builder(Service.COMPANY_DATA).get("/v1/a/{id}", OK).build();
        assertEquals(404, router.handle(get("/v1/a/")).status());
        assertEquals(404, router.handle(get("/v1/a//")).status());
        assertEquals(404, router.handle(get("/v1//a")).status());
    }

    @Test
    void runsHeadOnlyOnGetRoutesThatDoNotCharge() {
        java.util.concurrent.atomic.AtomicInteger charged = new java.util.concurrent.atomic.AtomicInteger();
        Router router = Router.builder(Service.COMPANY_DATA)
                .get("/v1/free", OK)
                .getCharged("/v1/paid", r -> {
                    charged.incrementAndGet();
                    return Response.json(200, "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                })
                .build();
        Request head = Request.of("HEAD", "/v1/paid", null, Headers.empty(), null, "rid", null, Limits.defaults());
        Response refused = router.handle(head);
        assertEquals(405, refused.status());
        assertEquals("GET", refused.headers().first("Allow").orElseThrow());
        assertEquals(0, charged.get(), "the charged route did not run");
        Request freeHead = Request.of("HEAD", "/v1/free", null, Headers.empty(), null, "rid", null, Limits.defaults());
        assertEquals(200, router.handle(freeHead).status());
        assertEquals(200, router.handle(get("/v1/paid")).status());
        assertEquals(1, charged.get());
    }
}
