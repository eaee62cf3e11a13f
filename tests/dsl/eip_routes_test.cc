// SPDX-License-Identifier: Apache-2.0
// split, multicast, recipientList, routingSlip, dynamicRouter, wireTap, loop and pipeline in
// route files, with Camel's YAML keys and XML elements.
#include <mutex>
#include <set>
#include <thread>

#include <dromedary/http/platform_http.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

class EipRoutesTest : public RouteFileTest {};

TEST_F(EipRoutesTest, YamlSplitWithTokenizeAndAStrategy) {
  loadYaml(R"(
- route:
    from:
      uri: direct:in
      steps:
        - split:
            tokenize: {token: ",", skipFirst: true}
            streaming: true
            aggregationStrategy: "#class:org.apache.camel.processor.aggregate.GroupedBodyAggregationStrategy"
            steps:
              - transform: {simple: "${body}!"}
              - to: mock:item
        - to: mock:after
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "head,a,b"));
  EXPECT_EQ(bodies("mock:item"), (std::vector<std::string>{"a!", "b!"}));
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->message().body(),
            Value(ValueList{"a!", "b!"}));
}

TEST_F(EipRoutesTest, YamlSplitOfAnExpressionWithABoundStrategy) {
  h.context.bindAggregationStrategy("joined", AggregationStrategies::string("|"));
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - split:
          expression: {simple: "${header.items}"}
          aggregationStrategy: joined
          parallelProcessing: true
          steps:
            - to: mock:item
      - to: mock:after
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "items", "p,q,r"));
  EXPECT_EQ(h.mock("mock:item").receivedCount(), 3u);
  EXPECT_EQ(bodies("mock:after"), (std::vector<std::string>{"p|q|r"}));
}

TEST_F(EipRoutesTest, YamlMulticastRecipientListSlipAndTap) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - multicast:
          steps:
            - to: mock:a
            - pipeline:
                steps:
                  - setBody: {constant: piped}
                  - to: mock:b
      - recipientList:
          header: to
          delimiter: ";"
      - routingSlip:
          header: slip
      - wireTap: mock:tap
      - loop:
          constant: 2
          steps:
            - to: mock:loop
)");
  Headers headers{{"to", "mock:r1;mock:r2"}, {"slip", "mock:s1,mock:s2"}};
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:in", "x", headers));
  EXPECT_EQ(bodies("mock:a"), (std::vector<std::string>{"x"}));
  EXPECT_EQ(bodies("mock:b"), (std::vector<std::string>{"piped"}));
  EXPECT_EQ(h.mock("mock:r1").receivedCount() + h.mock("mock:r2").receivedCount(), 2u);
  EXPECT_EQ(h.mock("mock:s2").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:loop").receivedCount(), 2u);
  auto& tap = h.mock("mock:tap");
  for (int i = 0; i < 500 && tap.receivedCount() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(tap.receivedCount(), 1u);
}

TEST_F(EipRoutesTest, XmlSplitMulticastAndLoop) {
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:in"/>
    <split streaming="true">
      <tokenize token="\n"/>
      <to uri="mock:line"/>
    </split>
    <multicast parallelProcessing="true">
      <to uri="mock:a"/>
      <to uri="mock:b"/>
    </multicast>
    <loop copy="true">
      <constant>3</constant>
      <to uri="mock:loop"/>
    </loop>
    <recipientList ignoreInvalidEndpoints="true">
      <header>to</header>
    </recipientList>
    <dynamicRouter>
      <exchangeProperty>next</exchangeProperty>
    </dynamicRouter>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "1\n2", "to", "mock:r,bad:x"));
  EXPECT_EQ(bodies("mock:line"), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:b").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:loop").receivedCount(), 3u);
  EXPECT_EQ(h.mock("mock:r").receivedCount(), 1u);
}

TEST_F(EipRoutesTest, XmlTokenizeSplitsLines) {
  loadXml(R"(<routes>
  <route>
    <from uri="direct:in"/>
    <split><tokenize token="," group="2"/><to uri="mock:item"/></split>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a,b,c"));
  EXPECT_EQ(bodies("mock:item"), (std::vector<std::string>{"a,b", "c"}));
}

TEST_F(EipRoutesTest, UnknownStrategyIsReportedAtItsPosition) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - split:
          simple: "${body}"
          aggregationStrategy: nope
          steps:
            - to: mock:x
)");
  EXPECT_NE(e.find("no aggregation strategy 'nope' at routes.yaml:7:11"), std::string::npos) << e;
  EXPECT_NE(e.find("UseLatestAggregationStrategy"), std::string::npos) << e;
}

TEST_F(EipRoutesTest, TokenizeOutsideSplitIsReported) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - setBody:
          tokenize: ","
)");
  EXPECT_NE(e.find("tokenize cuts a split's text"), std::string::npos) << e;
}

TEST_F(EipRoutesTest, BadTokenizeOptionsAreReported) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - split:
          tokenize: {token: ",", group: many}
          steps: [{to: mock:x}]
)");
  EXPECT_NE(e.find("group must be a whole number of tokens, not 'many' at routes.yaml:6"),
            std::string::npos) << e;
  e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - split:
          tokenize: {tokn: ","}
          steps: [{to: mock:x}]
)");
  EXPECT_NE(e.find("unknown key 'tokn' in tokenize"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'token'?"), std::string::npos) << e;
}

TEST_F(EipRoutesTest, UnknownSplitOptionSuggestsTheClosest) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - split:
          simple: "${body}"
          paralelProcessing: true
)");
  EXPECT_NE(e.find("unknown key 'paralelProcessing' in split"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'parallelProcessing'?"), std::string::npos) << e;
}

TEST_F(EipRoutesTest, NegativeTimeoutIsReported) {
  std::string e = xmlError(R"(<routes><route><from uri="direct:in"/>
<multicast timeout="-5"><to uri="mock:a"/></multicast></route></routes>)");
  EXPECT_NE(e.find("timeout must not be negative, not -5"), std::string::npos) << e;
}

TEST_F(EipRoutesTest, YamlAggregateBySizeAndPredicate) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - aggregate:
          correlationExpression: {header: id}
          aggregationStrategy: GroupedBodyAggregationStrategy
          completionSize: 3
          completionPredicate: {simple: "${body} == 'last'"}
          eagerCheckCompletion: true
          steps:
            - to: mock:out
)");
  for (const char* b : {"a", "last"}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", b, "id", "k"));
  }
  for (const char* b : {"x", "y", "z"}) {
    ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", b, "id", "j"));
  }
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]->message().body(), Value(ValueList{"a", "last"}));
  EXPECT_EQ(got[1]->message().body(), Value(ValueList{"x", "y", "z"}));
}

TEST_F(EipRoutesTest, XmlAggregateWithCorrelationExpressionElement) {
  loadXml(R"(<routes>
  <route>
    <from uri="direct:in"/>
    <aggregate aggregationStrategy="#class:org.apache.camel.processor.aggregate.StringAggregationStrategy"
               completionSize="2">
      <correlationExpression><header>id</header></correlationExpression>
      <to uri="mock:out"/>
    </aggregate>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a", "id", "1"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "b", "id", "1"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"ab"}));
}

TEST_F(EipRoutesTest, AggregateWithoutCorrelationIsReported) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - aggregate:
          aggregationStrategy: UseLatestAggregationStrategy
          completionSize: 2
)");
  EXPECT_NE(e.find("aggregate needs 'correlationExpression' at routes.yaml:5:9"),
            std::string::npos) << e;
}

TEST_F(EipRoutesTest, YamlFailoverAndIdempotentConsumer) {
  h.context.bindIdempotentRepository("seen", memoryIdempotentRepository());
  h.context.bindProcessor("down", processorOf([](Exchange&) {
    throw std::runtime_error("down");
  }));
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - idempotentConsumer:
          header: id
          idempotentRepository: seen
          steps:
            - loadBalance:
                failover:
                  maximumFailoverAttempts: 1
                  exception: [java.lang.Exception]
                steps:
                  - process: {ref: down}
                  - to: mock:up
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "id", "1"));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "id", "1"));
  EXPECT_EQ(h.mock("mock:up").receivedCount(), 1u);
}

TEST_F(EipRoutesTest, XmlWeightedAndStickyBalancers) {
  loadXml(R"(<routes>
  <route>
    <from uri="direct:w"/>
    <loadBalance>
      <weighted roundRobin="true" distributionRatio="2,1"/>
      <to uri="mock:a"/>
      <to uri="mock:b"/>
    </loadBalance>
  </route>
  <route>
    <from uri="direct:s"/>
    <loadBalance>
      <sticky><correlationExpression><header>user</header></correlationExpression></sticky>
      <to uri="mock:c"/>
      <to uri="mock:d"/>
    </loadBalance>
  </route>
</routes>)");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(h.producer.sendBody("direct:w", "x"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 2u);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:s", "x", "user", "u"));
  EXPECT_EQ(h.mock("mock:c").receivedCount() * h.mock("mock:d").receivedCount(), 0u);
}

// Camel 4 names the policies roundRobinLoadBalancer, failoverLoadBalancer ... in both DSLs.
TEST_F(EipRoutesTest, Camel4LoadBalancerNames) {
  loadYaml(R"(
- from:
    uri: direct:y
    steps:
      - loadBalance:
          weightedLoadBalancer: {distributionRatio: "2,1", roundRobin: true}
          steps: [{to: mock:a}, {to: mock:b}]
- from:
    uri: direct:t
    steps:
      - load-balance:
          topicLoadBalancer: {}
          steps: [{to: mock:t1}, {to: mock:t2}]
)");
  loadXml(R"(<routes>
  <route>
    <from uri="direct:x"/>
    <loadBalance>
      <roundRobinLoadBalancer/>
      <to uri="mock:c"/>
      <to uri="mock:d"/>
    </loadBalance>
  </route>
</routes>)");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(h.producer.sendBody("direct:y", "x"));
  EXPECT_EQ(h.mock("mock:a").receivedCount(), 2u);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(h.producer.sendBody("direct:x", "x"));
  EXPECT_EQ(h.mock("mock:c").receivedCount(), 2u);
  EXPECT_EQ(h.mock("mock:d").receivedCount(), 2u);
  ASSERT_TRUE(h.producer.sendBody("direct:t", "x"));
  EXPECT_EQ(h.mock("mock:t1").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:t2").receivedCount(), 1u);
}

// script evaluates its expression for its effects: the message stays; a failure fails it.
TEST_F(EipRoutesTest, ScriptLeavesTheMessageAndFailsWithItsExpression) {
  loadYaml(R"(
- from:
    uri: direct:script
    steps:
      - script:
          simple: "${mandatoryBodyAs(Integer)}"
      - to: mock:script
)");
  loadXml(R"(<routes>
  <route>
    <from uri="direct:xml-script"/>
    <script><simple>${mandatoryBodyAs(Integer)}</simple></script>
    <loadBalance>
      <topicLoadBalancer/>
      <to uri="mock:t3"/>
      <to uri="mock:t4"/>
    </loadBalance>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:script", "42"));
  ASSERT_EQ(h.mock("mock:script").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:script").receivedExchanges()[0]->message().body().as<std::string>(),
            "42");
  EXPECT_FALSE(h.producer.sendBody("direct:script", Value()));
  EXPECT_EQ(h.mock("mock:script").receivedCount(), 1u);
  ASSERT_TRUE(h.producer.sendBody("direct:xml-script", "7"));
  EXPECT_EQ(h.mock("mock:t3").receivedCount() + h.mock("mock:t4").receivedCount(), 2u)
      << "topic: every branch";
}

TEST_F(EipRoutesTest, TwoBalancerPoliciesAreReported) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - loadBalance:
          roundRobin: {}
          random: {}
          steps: [{to: mock:a}]
)");
  EXPECT_NE(e.find("a loadBalance has one policy at routes.yaml:7:11"), std::string::npos) << e;
}

TEST_F(EipRoutesTest, UnboundIdempotentRepositoryIsReported) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - idempotentConsumer:
          header: id
          idempotentRepository: nope
          steps: [{to: mock:a}]
)");
  EXPECT_NE(e.find("no idempotent repository bound as 'nope' at routes.yaml:7"),
            std::string::npos) << e;
}

TEST_F(EipRoutesTest, YamlSortAndSample) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - sort: {simple: "${body}"}
      - sample: {messageFrequency: 2}
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "b,a"));
  ASSERT_TRUE(h.producer.sendBody("direct:in", "d,c"));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->message().body(), Value(ValueList{"c", "d"}));
}

TEST_F(EipRoutesTest, YamlEnrich) {
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - enrich:
          constant: direct:resource
      - to: mock:out
- from:
    uri: direct:resource
    steps:
      - setBody: {simple: "enriched ${body}"}
)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"enriched x"}));
}

// Remembers which groups are stored (what a persistent repository would write).
class RecordingRepository final : public AggregationRepository {
 public:
  void add(std::string_view key, const Exchange&) override {
    std::lock_guard lock(mutex);
    stored.insert(std::string(key));
    ++adds;
  }
  void remove(std::string_view key) override {
    std::lock_guard lock(mutex);
    stored.erase(std::string(key));
  }
  std::vector<std::pair<std::string, ExchangePtr>> recover(Context&) override { return {}; }
  std::mutex mutex;
  std::set<std::string> stored;
  int adds = 0;
};

TEST_F(EipRoutesTest, YamlAggregateKeepsItsGroupsInANamedRepository) {
  auto repo = std::make_shared<RecordingRepository>();
  h.context.bindAggregationRepository("groups", repo);
  loadYaml(R"(
- from:
    uri: direct:in
    steps:
      - aggregate:
          correlationExpression: {header: id}
          aggregationStrategy: GroupedBodyAggregationStrategy
          aggregationRepository: "#groups"
          completionSize: 2
          steps:
            - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a1", "id", "a"));
  EXPECT_EQ(repo->stored, (std::set<std::string>{"a"}));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "a2", "id", "a"));
  EXPECT_EQ(h.mock("mock:out").receivedCount(), 1u);
  EXPECT_TRUE(repo->stored.empty());
  EXPECT_GE(repo->adds, 2);
}

TEST_F(EipRoutesTest, AnUnboundAggregationRepositoryIsReported) {
  std::string e = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - aggregate:
          correlationExpression: {header: id}
          aggregationStrategy: GroupedBodyAggregationStrategy
          aggregationRepository: nowhere
          completionSize: 2
)");
  EXPECT_NE(e.find("no aggregation repository bound as 'nowhere' at routes.yaml:8:11; bind one "
                   "with Context::bindAggregationRepository"),
            std::string::npos)
      << e;
}

TEST_F(EipRoutesTest, YamlAndXmlPollEnrich) {
  loadYaml(R"(
- from:
    uri: direct:yaml
    steps:
      - pollEnrich:
          constant: seda:files
          timeout: 1000
      - to: mock:yaml
)");
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:xml"/>
    <pollEnrich timeout="0" aggregationStrategy="GroupedBodyAggregationStrategy" cacheSize="10">
      <simple>seda:${header.queue}</simple>
    </pollEnrich>
    <to uri="mock:xml"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("seda:files", "content"));
  ASSERT_TRUE(h.producer.sendBody("direct:yaml", "x"));
  EXPECT_EQ(bodies("mock:yaml"), (std::vector<std::string>{"content"}));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:xml", "kept", "queue", "empty"));
  EXPECT_EQ(bodies("mock:xml"), (std::vector<std::string>{"kept"}));
}

TEST_F(EipRoutesTest, PollEnrichErrorsAreReportedAtTheirPosition) {
  std::string y = yamlError(R"(
- from:
    uri: direct:in
    steps:
      - pollEnrich:
          constant: seda:x
          timeout: soon
)");
  EXPECT_NE(y.find("timeout must be a whole number, not 'soon' at routes.yaml:7:11"),
            std::string::npos) << y;
  std::string e = xmlError(R"(<routes><route><from uri="direct:in"/>
<pollEnrich><constant>log:x</constant></pollEnrich></route></routes>)");
  EXPECT_NE(e.find("endpoint 'log://x' cannot be polled"), std::string::npos) << e;
}

TEST_F(EipRoutesTest, YamlAndXmlResequenceInBatches) {
  loadYaml(R"(
- from:
    uri: direct:yaml
    steps:
      - resequence:
          header: n
          batchConfig: {batchSize: 2, reverse: true}
          steps:
            - to: mock:yaml
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:yaml", "a", "n", 1));
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:yaml", "b", "n", 2));
  EXPECT_EQ(bodies("mock:yaml"), (std::vector<std::string>{"b", "a"}));
}

TEST_F(EipRoutesTest, XmlResequenceStreamConfig) {
  std::string e = xmlError(R"(<routes><route><from uri="direct:in"/>
<resequence><streamConfig capacity="0"/><header>n</header><to uri="mock:a"/></resequence>
</route></routes>)");
  EXPECT_NE(e.find("capacity must be at least 1, not 0 at routes.xml:2"), std::string::npos) << e;
}

// A toD whose whole URI is an expression (Camel's usual `toD: "${header.target}"`): the
// loader once took it for a bare component name and added a ':' ("direct:x:").
TEST_F(EipRoutesTest, ToDWhoseWholeUriIsAnExpressionSendsThere) {
  loadYaml(R"(
- from:
    uri: direct:route
    steps: [{toD: "${header.target}"}]
- from:
    uri: direct:routeWithOptions
    steps: [{toD: {uri: "${header.target}", parameters: {block: false}}}]
- from:
    uri: direct:x
    steps: [{to: mock:x}]
)");
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:route", "a", {{"target", Value("direct:x")}}));
  ASSERT_TRUE(h.producer.sendBodyAndHeaders("direct:routeWithOptions", "b",
                                            {{"target", Value("direct:x")}}));
  EXPECT_EQ(bodies("mock:x"), (std::vector<std::string>{"a", "b"}));
}

// toD's allowOptimisedComponents (Camel's key): true, the default, sends URLs of one host to
// one endpoint; false makes one per URL. In YAML; in XML the same attribute.
TEST_F(EipRoutesTest, ToDAllowOptimisedComponentsChoosesOneEndpointPerHostOrPerUrl) {
  RouteHarness server;
  server.context.properties().set("camel.server.host", "127.0.0.1");
  server.context.properties().set("camel.server.port", "0");
  ASSERT_TRUE(server.context.addRoutes([](RouteBuilder& b) {
    b.from("platform-http:/item/{n}").setBody(simple("item ${header.n}"));
  }));
  ASSERT_TRUE(server.context.start());
  h.context.properties().set("port", std::to_string(platformHttpPort(server.context)));
  loadYaml(R"(
- from:
    uri: direct:shared
    steps: [{toD: {uri: "http://127.0.0.1:{{port}}/item/${header.n}"}}]
- from:
    uri: direct:each
    steps:
      - toD: {uri: "http://127.0.0.1:{{port}}/item/${header.n}", allowOptimisedComponents: false}
)");
  auto endpoints = [&] {
    auto uris = h.context.endpointUris();
    return std::count_if(uris.begin(), uris.end(),
                         [](const std::string& u) { return u.starts_with("http:"); });
  };
  for (const char* route : {"direct:shared", "direct:each"}) {
    for (int n = 0; n < 3; ++n) {
      auto reply = h.producer.requestBodyAndHeader(route, Value(), "n", Value(int64_t{n}));
      ASSERT_TRUE(reply) << reply.error().message;
      EXPECT_EQ(reply->toString(), "item " + std::to_string(n));
    }
  }
  EXPECT_EQ(endpoints(), 1 + 3);
  h.context.stop();
  EXPECT_EQ(yamlError(R"(
- from:
    uri: direct:x
    steps: [{toD: {uri: "http://h/${body}", allowOptimisedComponents: sometimes}}]
)"),
            "allowOptimisedComponents must be true or false, not 'sometimes' at routes.yaml:4:45");
}

}  // namespace
}  // namespace dromedary::testing
