package io.redkit.demo;

/** This instance's name: {@code demo.instance-id}, or host and pid. */
public record InstanceId(String value) {
}
