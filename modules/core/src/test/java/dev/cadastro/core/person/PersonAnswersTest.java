package dev.cadastro.core.person;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.provider.MalformedAnswerException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PersonAnswersTest {
    private static final Cpf CPF = Cpf.withCheckDigits("529982247");

    private static Map<String, Object> raw() {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("cpf", CPF.digits());
        t.put("nome", "ANA SILVA");
        t.put("score", 720);
        t.put("rg", "123456789");
        t.put("nome_pai", "JOAO SILVA");
        Map<String, Object> address = new LinkedHashMap<>();
        address.put("logradouro", "RUA A");
        address.put("municipio", "SAO PAULO");
        address.put("uf", "SP");
        address.put("cep", "01001000");
        address.put("geolocalizacao", List.of(-23.5, -46.6));
        t.put("enderecos", List.of(address));
        t.put("telefones", List.of(Map.of("numero", "11912345678", "tipo", "MOVEL")));
        return t;
    }

    @Test
    void dropsWhatTheAllowlistLacksAndRoundTrips() {
        Dossier d = PersonAnswers.read(raw(), new Subject.ByCpf(CPF));
        Map<String, Object> tree = PersonAnswers.tree(d);
        assertEquals(Set.of("cpf", "nome", "enderecos", "telefones", "emails", "score"), tree.keySet());
        assertEquals(
                Set.of("logradouro", "municipio", "uf", "cep"),
                ((Map<?, ?>) ((List<?>) tree.get("enderecos")).get(0)).keySet());
        assertEquals(d, PersonAnswers.read(tree, new Subject.ByCpf(CPF)));
    }

    @Test
    void releasesAWholeBlockOrOneFieldOfItsItemsAndNothingElse() {
        Dossier d = PersonAnswers.read(raw(), new Subject.ByCpf(CPF));
        Map<String, Object> released = PersonAnswers.release(d, Set.of("nome", "enderecos.cep"));
        assertEquals(Set.of("nome", "enderecos"), released.keySet());
        assertEquals(Map.of("cep", "01001000"), ((List<?>) released.get("enderecos")).get(0));
        assertEquals(List.of("enderecos", "nome"), PersonAnswers.fieldsOf(released));
        assertEquals(
                Set.of("telefones"),
                PersonAnswers.release(d, Set.of("telefones")).keySet());
        assertEquals(Set.of(), PersonAnswers.release(d, Set.of("renda")).keySet(), "an unknown name releases nothing");
    }

    @Test
    void refusesADossierAboutAnotherCpf() {
        Map<String, Object> t = raw();
        t.put("cpf", Cpf.withCheckDigits("111444777").digits());
        MalformedAnswerException e =
                assertThrows(MalformedAnswerException.class, () -> PersonAnswers.read(t, new Subject.ByCpf(CPF)));
        assertEquals("cpf", e.path());
    }

    @Test
    void aSubjectPrintsMasked() {
        assertEquals("ByCpf[***982247**]", new Subject.ByCpf(CPF).toString());
        assertEquals(
                "ByPhone[(11) *******78]",
                new Subject.ByPhone(dev.cadastro.core.document.Phone.of("11912345678")).toString());
    }
}
