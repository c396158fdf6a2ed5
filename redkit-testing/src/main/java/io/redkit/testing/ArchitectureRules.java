package io.redkit.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.util.ArrayList;
import java.util.List;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/**
 * The layering every redkit module keeps (DESIGN §1, §2.10), checked with ArchUnit on the module's own main
 * classes by a one-line {@code ArchitectureTest} in each module:
 *
 * <ul>
 *   <li>no Lettuce or Netty type outside redkit-core: feature code sees redkit's seam only;
 *   <li>a feature module depends on redkit-core's API ({@code io.redkit}, {@code io.redkit.json}) only: not on
 *       core's {@code internal}, not on another feature module;
 *   <li>no module reaches into another module's {@code internal} package;
 *   <li>public API types do not expose an {@code internal} type in a public signature.
 * </ul>
 *
 * <p>A module on top of the features (the starter) is checked by {@link #checkIntegration}: the same rules but
 * the one against depending on feature modules.
 */
public final class ArchitectureRules {

    private static final String CORE = "io.redkit";

    private ArchitectureRules() {
    }

    /**
     * Checks a feature module rooted at {@code featurePackage} (e.g. {@code io.redkit.lock}).
     *
     * @throws AssertionError listing every violation
     */
    public static void checkFeature(String featurePackage) {
        JavaClasses classes = mainClasses(featurePackage);
        List<ArchRule> rules = new ArrayList<>();
        rules.add(noClasses().should().dependOnClassesThat().resideInAnyPackage("io.lettuce..", "io.netty..")
                .because("feature modules see redkit-core's seam, never Lettuce or Netty (DESIGN §2.10)"));
        rules.add(noClasses().should().dependOnClassesThat(otherRedkitThan(featurePackage))
                .because("a feature module depends on redkit-core's API only: not on core's internal, not on"
                        + " another feature module"));
        rules.add(publicApiExposesNoInternalType());
        check(classes, rules);
    }

    /**
     * Checks a module that sits on top of the features (the Spring Boot starter, rooted at {@code rootPackage}): it
     * may use every module's API, but no Lettuce or Netty type and no other module's {@code internal}, and its
     * public API exposes no {@code internal} type.
     *
     * @throws AssertionError listing every violation
     */
    public static void checkIntegration(String rootPackage) {
        JavaClasses classes = mainClasses(rootPackage);
        List<ArchRule> rules = new ArrayList<>();
        rules.add(noClasses().should().dependOnClassesThat().resideInAnyPackage("io.lettuce..", "io.netty..")
                .because("only redkit-core sees Lettuce and Netty (DESIGN §2.10)"));
        rules.add(noClasses().should().dependOnClassesThat(DescribedPredicate.describe(
                "are in another module's internal package", (JavaClass c) -> c.getPackageName().startsWith(CORE)
                        && c.getPackageName().contains(".internal")
                        && !c.getPackageName().startsWith(rootPackage + ".")))
                .because("modules build on each other's API; internal types may change in any release"));
        rules.add(publicApiExposesNoInternalType());
        check(classes, rules);
    }

    /**
     * Checks redkit-core: its public API exposes no {@code internal} type, and it depends on no feature module.
     *
     * @throws AssertionError listing every violation
     */
    public static void checkCore() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS).importPackages(CORE)
                .that(DescribedPredicate.describe("in core", (JavaClass c) -> c.getPackageName().equals(CORE)
                        || c.getPackageName().equals(CORE + ".internal")));
        List<ArchRule> rules = new ArrayList<>();
        rules.add(noClasses().that().resideInAnyPackage(CORE, CORE + ".internal").should().dependOnClassesThat(
                DescribedPredicate.describe("a feature module", (JavaClass c) -> c.getPackageName()
                        .startsWith(CORE + ".") && !c.getPackageName().equals(CORE + ".internal")))
                .because("core never depends on a feature; features are built from it"));
        rules.add(publicApiExposesNoInternalType());
        check(classes, rules);
    }

    private static JavaClasses mainClasses(String root) {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS).importPackages(root)
                .that(DescribedPredicate.describe("in " + root, (JavaClass c) -> c.getPackageName().equals(root)
                        || c.getPackageName().startsWith(root + ".")));
    }

    /** A redkit class outside core's API and outside the feature itself. */
    private static DescribedPredicate<JavaClass> otherRedkitThan(String feature) {
        return DescribedPredicate.describe("a redkit class outside " + feature + " and core's API", c -> {
            String p = c.getPackageName();
            boolean redkit = p.equals(CORE) || p.startsWith(CORE + ".");
            boolean own = p.equals(feature) || p.startsWith(feature + ".");
            return redkit && !own && !p.equals(CORE) && !p.equals(CORE + ".json");
        });
    }

    private static ArchRule publicApiExposesNoInternalType() {
        return methods().that().arePublic().and().areDeclaredInClassesThat(
                DescribedPredicate.describe("public API types", (JavaClass c) -> c.getModifiers()
                        .contains(JavaModifier.PUBLIC) && !c.getPackageName().contains(".internal")))
                .should(new ArchCondition<JavaMethod>("not expose an internal type") {
                    @Override
                    public void check(JavaMethod method, ConditionEvents events) {
                        List<JavaClass> types = new ArrayList<>(method.getRawParameterTypes());
                        types.add(method.getRawReturnType());
                        for (JavaClass type : types) {
                            JavaClass base = type.isArray() ? type.getBaseComponentType() : type;
                            if (base.getPackageName().contains(".internal")
                                    && base.getPackageName().startsWith(CORE)) {
                                events.add(SimpleConditionEvent.violated(method, method.getFullName()
                                        + " exposes " + base.getName()));
                            }
                        }
                    }
                })
                .allowEmptyShould(true)
                .because("users build on the API; internal types may change in any release");
    }

    private static void check(JavaClasses classes, List<ArchRule> rules) {
        if (classes.isEmpty()) {
            throw new AssertionError("no main classes found to check: is the module's package right?");
        }
        StringBuilder failures = new StringBuilder();
        for (ArchRule rule : rules) {
            EvaluationResult result = rule.evaluate(classes);
            if (result.hasViolation()) {
                failures.append(result.getFailureReport()).append('\n');
            }
        }
        if (failures.length() > 0) {
            throw new AssertionError(failures.toString());
        }
    }
}
