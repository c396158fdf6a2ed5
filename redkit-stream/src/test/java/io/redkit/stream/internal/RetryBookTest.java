package io.redkit.stream.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RetryBookTest {

    private static final long MS = 1_000_000;

    @Test
    void theBackoffDoublesPerDeliveryUpToTheMaximumWithHalfOfItRandom() {
        RetryBook book = new RetryBook(10, 100 * MS, 1000 * MS);
        for (int i = 0; i < 200; i++) {
            assertThat(book.backoffNanos(1)).isBetween(50 * MS, 100 * MS);
            assertThat(book.backoffNanos(2)).isBetween(100 * MS, 200 * MS);
            assertThat(book.backoffNanos(4)).isBetween(400 * MS, 800 * MS);
            assertThat(book.backoffNanos(60)).isBetween(500 * MS, 1000 * MS);
        }
    }

    @Test
    void dueEntriesComeEarliestFirstAndAFullBookSaysSo() {
        RetryBook book = new RetryBook(3, MS, MS);
        book.schedule("3-0", 1, 30);
        book.schedule("1-0", 1, 10);
        book.schedule("2-0", 2, 20);
        assertThat(book.isFull()).isTrue();
        assertThat(book.due(25, 10)).extracting(RetryBook.Entry::id).containsExactly("1-0", "2-0");
        assertThat(book.due(25, 1)).extracting(RetryBook.Entry::id).containsExactly("1-0");
        assertThat(book.nanosUntilNext(0)).isEqualTo(10);
        book.remove("1-0");
        assertThat(book.isFull()).isFalse();
        assertThat(book.get("2-0").deliveries()).isEqualTo(2);
    }
}
