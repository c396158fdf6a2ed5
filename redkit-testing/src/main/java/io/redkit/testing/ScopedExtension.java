package io.redkit.testing;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Lifecycle shared by the extensions: a static {@code @RegisterExtension} field gets one resource per
 * test class (JUnit calls beforeAll), an instance field one per test method (JUnit calls only
 * beforeEach). Between the tests of a class the resource is healed, so one test's fault does not
 * break the next, and a class whose tests leave a thread running fails, naming the test ({@link ThreadLeakCheck}),
 * so that no test's work reaches the servers while another counts what they ran.
 */
abstract class ScopedExtension<T extends AutoCloseable> implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private volatile T resource;
    // Threads at the start of the class, and at the start of the test method running now (see ThreadLeakCheck).
    private ThreadLeakCheck classThreads;
    private ThreadLeakCheck threads;
    private final Map<Thread, String> startedBy = new HashMap<>();
    // The context that started the resource closes it; nested classes and methods only heal it.
    private String owner;

    /** Starts the resource; {@code context} is the class (static field) or method (instance field) it is for. */
    abstract T startResource(ExtensionContext context);

    abstract void heal(T resource);

    /** Starts the resource for the whole class (static field). */
    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        if (resource == null) {
            classThreads = ThreadLeakCheck.snapshot();
        }
        startIfAbsent(context);
    }

    /** Starts the resource for this test method, unless the class already has one. */
    @Override
    public synchronized void beforeEach(ExtensionContext context) {
        startIfAbsent(context);
        threads = ThreadLeakCheck.snapshot();
    }

    /** Closes a per-method resource, or heals a per-class one (resume paused, restart killed). */
    @Override
    public synchronized void afterEach(ExtensionContext context) throws Exception {
        if (resource == null) {
            return;
        }
        if (context.getUniqueId().equals(owner)) {
            closeResource();
        } else {
            heal(resource);
        }
        ThreadLeakCheck check = threads;
        threads = null;
        if (check == null) {
            return;
        }
        if (classThreads == null) {
            check.verify(context.getDisplayName()); // a resource of this method only: nothing outlives it
        } else {
            check.startedSince().forEach(t -> startedBy.putIfAbsent(t, context.getDisplayName()));
        }
    }

    /** Closes a per-class resource when its class is done. */
    @Override
    public synchronized void afterAll(ExtensionContext context) throws Exception {
        if (resource != null && context.getUniqueId().equals(owner)) {
            closeResource();
            ThreadLeakCheck check = classThreads;
            classThreads = null;
            Map<Thread, String> seen = Map.copyOf(startedBy);
            startedBy.clear();
            if (check != null) {
                check.verify(context.getDisplayName(), seen);
            }
        }
    }

    /** Returns the started resource, failing with advice when used outside a test. */
    T resource() {
        T current = resource;
        if (current == null) {
            throw new IllegalStateException(getClass().getSimpleName() + " is not started: register it with @RegisterExtension "
                    + "and use it from a test or lifecycle method");
        }
        return current;
    }

    boolean isStarted() {
        return resource != null;
    }

    private void startIfAbsent(ExtensionContext context) {
        if (resource == null) {
            resource = startResource(context);
            owner = context.getUniqueId();
        }
    }

    private void closeResource() throws Exception {
        T current = resource;
        resource = null;
        owner = null;
        current.close();
    }
}
