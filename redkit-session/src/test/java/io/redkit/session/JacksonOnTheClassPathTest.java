package io.redkit.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.redkit.json.Json;

/**
 * Neither Jackson is forced on an application: both are optional dependencies, and the session store works with
 * whichever one is there, or none when the application gives its own codec. The build runs this class three more
 * times, with Jackson 2, Jackson 3 and both taken off the class path (this module's pom, surefire executions
 * {@code without-*}); each run checks what its class path holds.
 */
class JacksonOnTheClassPathTest {

    record Account(String name) {
    }

    private static final boolean JACKSON3 = present("tools.jackson.databind.json.JsonMapper");
    private static final boolean JACKSON2 = present("com.fasterxml.jackson.databind.ObjectMapper");

    @Test
    void theDefaultCodecUsesTheJacksonThereIsAndNamesWhatToAddWhenThereIsNone() throws Exception {
        if (!JACKSON3 && !JACKSON2) {
            assertThatThrownBy(() -> JsonSessionCodec.of(Account.class)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("tools.jackson.core:jackson-databind")
                    .hasMessageContaining("com.fasterxml.jackson.core:jackson-databind");
            return;
        }
        assertThat(Json.defaults().describe()).startsWith(JACKSON3 ? "Jackson 3." : "Jackson 2.");
        JsonSessionCodec<Account> codec = JsonSessionCodec.of(Account.class);
        byte[] bytes = codec.encode(new Account("ann"));
        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"name\":\"ann\"}");
        assertThat(codec.decode(bytes)).isEqualTo(new Account("ann"));
    }

    @Test
    void theStoredHeaderNeedsNoJackson() {
        // Envelope is package-private: its round trip through the public surface is SessionContract's; here, that
        // the classes a store loads to write one resolve on this class path.
        assertThat(io.redkit.session.internal.EnvelopeAccess.roundTripsUserId("ren\u00e9 \"q\"")).isTrue();
    }

    @Test
    void frameworksCanReflectOnTheJsonTypesWithEitherJacksonAbsent() {
        // Spring lists a bean's methods and its interfaces' (the Json bean of the starter); a signature naming the
        // absent library fails that with NoClassDefFoundError.
        List<Class<?>> types = new java.util.ArrayList<>(List.of(Json.class, io.redkit.json.JsonBinding.class,
                JsonSessionCodec.class));
        if (JACKSON3 || JACKSON2) {
            types.add(Json.defaults().getClass());
        }
        for (Class<?> type : types) {
            assertThat(type.getDeclaredMethods()).as(type.getName()).isNotNull();
            for (Class<?> implemented : type.getInterfaces()) {
                assertThat(implemented.getDeclaredMethods()).as(implemented.getName()).isNotNull();
            }
        }
    }

    @Test
    void codeCallingTheDefaultCodecCompilesWithEitherJacksonAbsent(@TempDir Path out) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String source = "class Uses { Object codec = io.redkit.session.JsonSessionCodec.of(String.class);"
                + " Class<?> type = Long.class; Object wild = io.redkit.session.JsonSessionCodec.of(type);"
                + " Object using = io.redkit.session.JsonSessionCodec.using(io.redkit.json.Json.defaults(), type); }";
        var file = new SimpleJavaFileObject(URI.create("string:///Uses.java"), SimpleJavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        var errors = new java.io.StringWriter();
        boolean compiled = javac.getTask(errors, null, null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString()), null,
                List.of(file)).call();

        assertThat(compiled).as(errors.toString()).isTrue();
        assertThat(Files.exists(out.resolve("Uses.class"))).isTrue();
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, JacksonOnTheClassPathTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
