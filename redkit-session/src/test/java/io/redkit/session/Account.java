package io.redkit.session;

import java.util.List;

/** Session data of the tests: who signed in and what they may do. */
public record Account(String name, List<String> roles) {
}
