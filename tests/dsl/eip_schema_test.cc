// SPDX-License-Identifier: Apache-2.0
// The EIPs' schemas (src/eip/): every step of the file DSLs has one, Camel's aliases and
// kebab-case reach it, typed attributes are checked when the file loads, the C++ builder's
// defaults are the schemas', and docs/eip-reference.md is what the schemas print.
#include <dromedary/dromedary.h>
#include <dromedary/dsl/route_loader.h>
#include <fmt/format.h>
#include <gmock/gmock.h>

#include <fstream>
#include <iterator>
#include <set>

#include "dsl/translator.h"
#include "eip/eip_schemas.h"
#include "eip/models.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using ::testing::HasSubstr;

const eip::AttributeSchema& attributeOf(std::string_view step, std::string_view name) {
  const eip::EipSchema* schema = eip::findEipSchema(step);
  EXPECT_NE(schema, nullptr) << step;
  const eip::AttributeSchema* a = schema ? schema->attribute(name) : nullptr;
  EXPECT_NE(a, nullptr) << step << "." << name;
  static const eip::AttributeSchema kNone{};
  return a ? *a : kNone;
}

int64_t defaultOf(std::string_view step, std::string_view name) {
  return std::stoll(std::string(attributeOf(step, name).defaultValue));
}

TEST(EipSchemaTest, KeysAndAliasesAreUniqueAndEachFindsItsSchema) {
  std::set<std::string_view> seen;
  for (const eip::EipSchema* s : eip::eipSchemas()) {
    EXPECT_TRUE(seen.insert(s->key).second) << s->key;
    EXPECT_EQ(eip::findEipSchema(s->key), s);
    for (std::string_view alias : s->aliases) {
      EXPECT_TRUE(seen.insert(alias).second) << alias;
      EXPECT_EQ(eip::findEipSchema(alias), s) << alias;
    }
    EXPECT_FALSE(s->description.empty()) << s->key;
    for (const eip::AttributeSchema& a : s->attributes) {
      EXPECT_FALSE(a.description.empty()) << s->key << "." << a.name;
      EXPECT_EQ(a.type == eip::AttributeType::Enum, !a.values.empty()) << s->key << "." << a.name;
    }
  }
}

// The walker finds a step's translation by its schema's key: neither may be missing.
TEST(EipSchemaTest, EverySchemaHasATranslationAndEveryTranslationASchema) {
  for (const eip::EipSchema* s : eip::eipSchemas()) {
    EXPECT_NE(dsl::findStepTranslation(s->key), nullptr) << s->key;
  }
  for (auto group : {dsl::basicStepTranslations(), dsl::routingStepTranslations(),
                     dsl::fanOutStepTranslations(), dsl::errorHandlingStepTranslations()}) {
    for (const dsl::StepTranslation& t : group) {
      const eip::EipSchema* schema = eip::findEipSchema(t.key);
      EXPECT_TRUE(schema && schema->key == t.key) << t.key;
    }
  }
}

TEST(EipSchemaTest, KebabCaseNamesBecomeCamelCase) {
  EXPECT_EQ(eip::camelCaseOf("set-header"), "setHeader");
  EXPECT_EQ(eip::camelCaseOf("logging-level"), "loggingLevel");
  EXPECT_EQ(eip::camelCaseOf("to-d"), "toD");
  EXPECT_EQ(eip::camelCaseOf("setHeader"), "setHeader");
}

// What the C++ DSL gives when an option is left out is what the schema says (and so what a
// route file gives).
TEST(EipSchemaTest, TheBuildersDefaultsAreTheSchemas) {
  RouteBuilder b;
  RouteDefinition& def = b.from("direct:a");
  auto last = [&]() { return def.lastStepForEngine(); };

  def.threads();
  auto* threads = dynamic_cast<eip::ThreadsModel*>(last());
  ASSERT_NE(threads, nullptr);
  EXPECT_EQ(threads->poolSize, defaultOf("threads", "poolSize"));
  EXPECT_EQ(threads->maxQueueSize, defaultOf("threads", "maxQueueSize"));

  def.throttle(int64_t{5});
  auto* throttle = dynamic_cast<eip::ThrottleModel*>(last());
  ASSERT_NE(throttle, nullptr);
  EXPECT_EQ(throttle->period.count(), defaultOf("throttle", "timePeriodMillis"));
  EXPECT_EQ(throttle->reject, false);
  EXPECT_EQ(attributeOf("throttle", "rejectExecution").defaultValue, "false");

  def.sample();
  auto* sample = dynamic_cast<eip::SampleModel*>(last());
  ASSERT_NE(sample, nullptr);
  EXPECT_EQ(sample->periodMillis, defaultOf("sample", "samplePeriod"));

  def.pollEnrich("direct:b");
  auto* poll = dynamic_cast<eip::EnrichModel*>(last());
  ASSERT_NE(poll, nullptr);
  EXPECT_EQ(poll->timeoutMillis, defaultOf("pollEnrich", "timeout"));

  def.recipientList(header("to"));
  auto* list = dynamic_cast<eip::RecipientListModel*>(last());
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->delimiter, attributeOf("recipientList", "delimiter").defaultValue);
  EXPECT_EQ(list->cacheSize, defaultOf("recipientList", "cacheSize"));

  def.routingSlip(header("slip"));
  auto* slip = dynamic_cast<eip::RoutingSlipModel*>(last());
  ASSERT_NE(slip, nullptr);
  EXPECT_EQ(slip->delimiter, attributeOf("routingSlip", "uriDelimiter").defaultValue);

  def.pollEnrich(header("from"));
  auto* poll_dynamic = dynamic_cast<eip::EnrichModel*>(last());
  ASSERT_NE(poll_dynamic, nullptr);
  EXPECT_EQ(poll_dynamic->timeoutMillis, defaultOf("pollEnrich", "timeout"));

  def.resequence(header("n")).batch();
  auto* batch = dynamic_cast<eip::ResequenceModel*>(last());
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(batch->batchSize,
            eip::integerDefault(eip::kResequenceSchema, "batchConfig", "batchSize"));
  EXPECT_EQ(batch->batchTimeoutMillis,
            eip::integerDefault(eip::kResequenceSchema, "batchConfig", "batchTimeout"));
  def.end();
  def.resequence(header("n")).stream();
  auto* stream = dynamic_cast<eip::ResequenceModel*>(last());
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(stream->capacity,
            eip::integerDefault(eip::kResequenceSchema, "streamConfig", "capacity"));
  EXPECT_EQ(stream->streamTimeoutMillis,
            eip::integerDefault(eip::kResequenceSchema, "streamConfig", "timeout"));
  def.end();

  // CircuitBreakerConfig (a public header, which cannot read the schema) holds the same
  // defaults as Camel's resilience4jConfiguration.
  const CircuitBreakerConfig cb;
  auto r4j = [](std::string_view name) {
    return eip::integerDefault(eip::kCircuitBreakerSchema, "resilience4jConfiguration", name);
  };
  auto r4jText = [](std::string_view name) {
    const eip::ClauseSchema* c = eip::kCircuitBreakerSchema.clause("resilience4jConfiguration");
    return std::string(c->attribute(name)->defaultValue);
  };
  EXPECT_EQ(std::to_string(static_cast<int>(cb.failureRateThreshold)),
            r4jText("failureRateThreshold"));
  EXPECT_EQ(std::to_string(static_cast<int>(cb.slowCallRateThreshold)),
            r4jText("slowCallRateThreshold"));
  EXPECT_EQ(cb.permittedNumberOfCallsInHalfOpenState,
            r4j("permittedNumberOfCallsInHalfOpenState"));
  EXPECT_EQ(cb.slidingWindowSize, r4j("slidingWindowSize"));
  EXPECT_EQ(cb.minimumNumberOfCalls, r4j("minimumNumberOfCalls"));
  EXPECT_EQ(cb.waitDurationInOpenState.count(), r4j("waitDurationInOpenState") * 1000);
  EXPECT_EQ(cb.slowCallDurationThreshold.count(), r4j("slowCallDurationThreshold") * 1000);
  EXPECT_EQ(cb.bulkheadMaxConcurrentCalls, r4j("bulkheadMaxConcurrentCalls"));
  EXPECT_EQ(cb.timeoutDuration.count(), r4j("timeoutDuration"));
  EXPECT_EQ(r4jText("slidingWindowType"), cb.timeBasedSlidingWindow ? "TIME_BASED" : "COUNT_BASED");
  for (auto [name, value] :
       {std::pair<std::string_view, bool>{"throwExceptionWhenHalfOpenOrOpenState",
                                          cb.throwExceptionWhenHalfOpenOrOpenState},
        {"automaticTransitionFromOpenToHalfOpenEnabled",
         cb.automaticTransitionFromOpenToHalfOpenEnabled},
        {"bulkheadEnabled", cb.bulkheadEnabled},
        {"timeoutEnabled", cb.timeoutEnabled}}) {
    EXPECT_EQ(eip::booleanDefault(eip::kCircuitBreakerSchema, "resilience4jConfiguration", name),
              value)
        << name;
  }

  def.log("x");
  auto* log = dynamic_cast<eip::LogModel*>(last());
  ASSERT_NE(log, nullptr);
  EXPECT_EQ(loggingLevelName(log->level), attributeOf("log", "loggingLevel").defaultValue);

  def.aggregate(header("id"));
  auto* aggregate = dynamic_cast<eip::AggregateModel*>(last());
  ASSERT_NE(aggregate, nullptr);
  EXPECT_EQ(aggregate->timeoutCheckerIntervalMillis,
            defaultOf("aggregate", "completionTimeoutCheckerInterval"));
}

// The models read their defaults from the schemas (models.h): a model made with no options
// has each one, whichever schema of a shared group it reads.
TEST(EipSchemaTest, AModelLeftAloneHasItsSchemasDefaults) {
  eip::AggregationOptionsModel o;  // split's, multicast's and recipientList's
  EXPECT_EQ(o.parallelProcessing, false);
  EXPECT_EQ(attributeOf("multicast", "parallelProcessing").defaultValue, "false");
  EXPECT_EQ(o.timeoutMillis, defaultOf("multicast", "timeout"));
  EXPECT_EQ(o.stopOnException, attributeOf("multicast", "stopOnException").defaultValue == "true");
  EXPECT_EQ(o.shareUnitOfWork, attributeOf("multicast", "shareUnitOfWork").defaultValue == "true");
  eip::WireTapModel tap;
  EXPECT_EQ(tap.dynamicUri, attributeOf("wireTap", "dynamicUri").defaultValue == "true");

  RouteBuilder b;
  RouteDefinition& def = b.from("direct:a");
  def.idempotentConsumer(header("id"), std::string("seen"));
  auto* idempotent = dynamic_cast<eip::IdempotentConsumerModel*>(def.lastStepForEngine());
  ASSERT_NE(idempotent, nullptr);
  EXPECT_EQ(idempotent->eager, attributeOf("idempotentConsumer", "eager").defaultValue == "true");
  EXPECT_EQ(idempotent->skipDuplicate,
            attributeOf("idempotentConsumer", "skipDuplicate").defaultValue == "true");
  def.aggregate(header("id"));
  auto* aggregate = dynamic_cast<eip::AggregateModel*>(def.lastStepForEngine());
  ASSERT_NE(aggregate, nullptr);
  EXPECT_EQ(aggregate->completionSize, defaultOf("aggregate", "completionSize"));
  EXPECT_EQ(aggregate->completionTimeoutMillis, defaultOf("aggregate", "completionTimeout"));
}

// A model naming an attribute its schema lacks is caught on its first construction.
TEST(EipSchemaTest, ADefaultNamingNoAttributeIsAProgrammingError) {
  EXPECT_THROW(eip::integerDefault(eip::kThreadsSchema, "poolSise"), std::logic_error);
  EXPECT_THROW(eip::booleanDefault(eip::kThreadsSchema, "poolSize"), std::logic_error);
  EXPECT_EQ(eip::integerDefault(eip::kThreadsSchema, "poolSize"), 10);
}

TEST(EipSchemaTest, CamelsKebabCaseStepsAndKeysLoadFromYaml) {
  RouteHarness h;
  auto loaded = loadYamlRoutes(h.context, R"(
- route:
    from:
      uri: direct:in
      steps:
        - set-header:
            name: kind
            constant: order
        - convert-body-to: java.lang.String
        - remove-headers:
            pattern: Tmp*
            exclude-pattern: TmpKeep
        - log:
            message: "${header.kind}"
            logging-level: DEBUG
        - to: mock:out
)",
                               "kebab.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  ASSERT_TRUE(h.context.start());
  ASSERT_TRUE(h.producer.sendBodyAndHeader("direct:in", "x", "TmpKeep", "k"));
  auto received = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0]->message().getHeader("kind")->getString(), "order");
  EXPECT_NE(received[0]->message().getHeader("TmpKeep"), nullptr);
}

// Expression keys, predicate keys and top-level entries in kebab-case too: exchange-property,
// on-when, route-configuration, on-exception.
TEST(EipSchemaTest, KebabCaseLanguagesPredicatesAndEntriesLoadFromYaml) {
  RouteHarness h;
  auto loaded = loadYamlRoutes(h.context, R"(
- route-configuration:
    on-exception:
      - on-exception:
          on-when: {simple: "${body} == 'boom'"}
          handled: {constant: true}
          steps: [{set-body: {constant: handled}}]
- from:
    uri: direct:in
    steps:
      - set-property: {name: p, constant: yes}
      - filter:
          expression:
            exchange-property: p
          steps:
            - set-header: {name: seen, exchange-property: p}
      - to: mock:out
)",
                               "kebab.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  ASSERT_TRUE(h.context.start());
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  auto received = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0]->message().getHeader("seen")->as<std::string>(), "yes");
}

TEST(EipSchemaTest, TypedAttributesAreCheckedWhenTheFileLoads) {
  RouteHarness h;
  auto bad = [&](std::string_view step) {
    auto loaded = loadYamlRoutes(h.context,
                                 fmt::format("- from:\n    uri: direct:a\n    steps:\n      - {}\n",
                                             step),
                                 "typed.yaml");
    return loaded ? std::string() : loaded.error().message;
  };
  EXPECT_THAT(bad("split: {simple: '${body}', streaming: maybe, steps: [{to: mock:x}]}"),
              HasSubstr("streaming must be true or false, not 'maybe' at typed.yaml:4:"));
  EXPECT_THAT(bad("recipientList: {header: to, cacheSize: lots}"),
              HasSubstr("cacheSize must be a whole number, not 'lots' at typed.yaml:4:"));
  EXPECT_THAT(bad("setHeader: {constant: x}"), HasSubstr("setHeader needs 'name'"));
}

TEST(EipSchemaTest, AnEipsReferenceIsFoundByKeyOrAlias) {
  auto byAlias = eipReference("set-header");
  ASSERT_TRUE(byAlias);
  EXPECT_THAT(*byAlias, HasSubstr("## setHeader"));
  auto missing = eipReference("setHeadr");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "no EIP named 'setHeadr'; did you mean 'setHeader'?");
}

TEST(EipSchemaTest, DocsEipReferenceIsWhatTheSchemasPrint) {
  std::ifstream in(DROMEDARY_SOURCE_DIR "/docs/eip-reference.md");
  ASSERT_TRUE(in) << "docs/eip-reference.md is missing";
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(file == eipReference())
      << "docs/eip-reference.md is stale: regenerate it with "
         "`build/bin/dromedary eips --markdown > docs/eip-reference.md`";
}

}  // namespace
}  // namespace dromedary::testing
