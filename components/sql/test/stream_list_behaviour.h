// SPDX-License-Identifier: Apache-2.0
#pragma once

// outputType=StreamList on any database (included after sql_behaviour.h by sqlite_test.cc and
// postgresql_test.cc): the rows are read one at a time as a streaming split walks the body, in
// bounded memory; a split that is not streaming, or a conversion, reads them whole; a log does
// not read them; a failing query fails the exchange naming it; a non-query gives its update
// count as usual.

#include <dromedary/core/value_stream.h>

#include "sql_behaviour.h"
#include "support/peak_memory.h"

namespace dromedary::testing {

TEST_P(SqlBehaviour, StreamListRowsGoOneAtATimeThroughAStreamingSplit) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q")
        .to(q("select id, name from " + table + " where id >= :#min order by id",
              "outputType=StreamList"))
        .to("mock:body")
        .split(body())
        .streaming()
        .to("mock:rows");
  });
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:q", Value("x"), "min", Value(int64_t{2})));
  const Value& body = h.mock("mock:body").receivedExchanges()[0]->message().body();
  EXPECT_NE(body.getIf<StreamBody>(), nullptr) << body.typeName();
  auto rows = h.mock("mock:rows").receivedExchanges();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]->message().body().getMap()[1].second, Value("pear"));
  EXPECT_EQ(rows[1]->message().body().getMap()[1].second, Value("plum"));
  EXPECT_EQ(*rows[1]->properties().get("CamelSplitComplete"), Value(true));
  EXPECT_EQ(*rows[1]->properties().get("CamelSplitSize"), Value(int64_t{2}));
}

TEST_P(SqlBehaviour, StreamListReadWholeWhenTheSplitIsNotStreamingOrTheBodyIsConverted) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:split")
        .to(q("select id from " + table + " order by id", "outputType=StreamList"))
        .log("rows: ${body}")
        .split(body())
        .to("mock:rows");
    b.from("direct:text")
        .to(q("select id from " + table + " order by id", "outputType=StreamList"))
        .convertBodyTo("String")
        .to("mock:text");
    b.from("direct:empty")
        .to(q("select id from " + table + " where id > 100", "outputType=StreamList"))
        .split(body())
        .streaming()
        .to("mock:none");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:split", Value("x")));
  auto rows = h.mock("mock:rows").receivedExchanges();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(*rows[0]->properties().get("CamelSplitSize"), Value(int64_t{3}));
  ASSERT_TRUE(h.producer.sendBody("direct:text", Value("x")));
  EXPECT_EQ(h.mock("mock:text").receivedExchanges()[0]->message().body().toString(),
            R"([{"id":1},{"id":2},{"id":3}])");
  ASSERT_TRUE(h.producer.sendBody("direct:empty", Value("x")));
  EXPECT_EQ(h.mock("mock:none").receivedCount(), 0u);
}

TEST_P(SqlBehaviour, StreamListOfAQueryThatFailsFailsTheExchangeNamingIt) {
  h.start([&](RouteBuilder& b) {
    b.from("direct:q").to(q("select id from " + table + "_missing", "outputType=StreamList"));
  });
  auto sent = h.producer.sendBody("direct:q", Value("x"));
  ASSERT_FALSE(sent);
  EXPECT_THAT(sent.error().message, HasSubstr(table + "_missing"));
}

TEST_P(SqlBehaviour, StreamListOfAnUpdateGivesItsUpdateCount) {
  seed();
  h.start([&](RouteBuilder& b) {
    b.from("direct:q")
        .to(q("update " + table + " set state = 'x'", "outputType=StreamList"))
        .to("mock:out");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:q", Value("x")));
  EXPECT_EQ(*h.mock("mock:out").receivedExchanges()[0]->message().getHeader("CamelSqlUpdateCount"),
            Value(int64_t{3}));
}

TEST_P(SqlBehaviour, AStreamListOfManyRowsStaysInBoundedMemory) {
  constexpr int64_t kRows = 300'000;
  std::atomic<int64_t> seen{0}, sum{0};
  h.start([&](RouteBuilder& b) {
    b.from("direct:q")
        .to(q(fmt::format("with recursive n(i) as (select 1 union all select i + 1 from n "
                          "where i < {}) select i, 'row number ' || i as label from n",
                          kRows),
              "outputType=StreamList"))
        .split(body())
        .streaming()
        .process([&](Exchange& ex) {
          ++seen;
          sum += ex.message().body().getMap()[0].second.as<int64_t>();
        });
  });
  bool reset = resetPeakRss();
  long before = peakRssKb();
  ASSERT_TRUE(h.producer.sendBody("direct:q", Value("x")));
  long after = peakRssKb();
  EXPECT_EQ(seen, kRows);
  EXPECT_EQ(sum, kRows * (kRows + 1) / 2);
  if (!reset) GTEST_SKIP() << "the peak RSS cannot be reset here";
  // Read whole, these rows take about 60 MB.
  EXPECT_LT(after - before, 16 * 1024) << "peak RSS grew by " << (after - before) << " KB";
}

}  // namespace dromedary::testing
