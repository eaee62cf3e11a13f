// SPDX-License-Identifier: Apache-2.0
// Camel's built-in aggregation strategies. Each folds into one of the two exchanges it is
// given, so nothing is copied that the result does not keep.
#include <dromedary/engine/aggregation_strategy.h>

#include "eip/aggregation.h"

namespace dromedary {

namespace {

class UseLatest final : public AggregationStrategy {
 public:
  Exchange* aggregate(Exchange* old, Exchange& ex) override {
    // An earlier failure survives a later success, as in Camel.
    if (old && old->failed() && !ex.failed()) {
      ex.mutableErrorForEngine() = std::move(old->mutableErrorForEngine());
      old->clearError();
    }
    return &ex;
  }
};

class GroupedBody final : public AggregationStrategy {
 public:
  Exchange* aggregate(Exchange* old, Exchange& ex) override {
    Value& body = ex.message().body();
    if (!old) {
      Value first = std::move(body);
      body = Value(ValueList{std::move(first)});
      return &ex;
    }
    // An `old` this strategy did not start (enrich's or claimCheck's exchange) becomes the
    // list's first element.
    Value& group = old->message().body();
    if (!group.isList()) {
      Value first = std::move(group);
      group = Value(ValueList{std::move(first)});
    }
    group.mutableList().push_back(std::move(body));
    return old;
  }
};

class GroupedExchange final : public AggregationStrategy {
 public:
  Exchange* aggregate(Exchange* old, Exchange& ex) override {
    auto copy = std::make_shared<Exchange>(ex.context());
    copy->copyFrom(ex);
    if (ex.failed()) copy->mutableErrorForEngine() = ex.error();
    if (!old) {
      auto group = std::make_shared<GroupedExchanges>();
      group->exchanges.push_back(std::move(copy));
      ex.message().setBody(Value::object<GroupedExchanges>(std::move(group)));
      ex.clearError();
      return &ex;
    }
    // The group is only ever shared with this result: it grows in place. An `old` this
    // strategy did not start (enrich's exchange) becomes the group's first exchange.
    const auto* group = old->message().body().getIf<GroupedExchanges>();
    if (!group) {
      auto first = std::make_shared<Exchange>(old->context());
      first->copyFrom(*old);
      auto made = std::make_shared<GroupedExchanges>();
      made->exchanges.push_back(std::move(first));
      group = made.get();
      old->message().setBody(Value::object<GroupedExchanges>(std::move(made)));
    }
    const_cast<GroupedExchanges*>(group)->exchanges.push_back(std::move(copy));
    return old;
  }
};

class StringJoin final : public AggregationStrategy {
 public:
  explicit StringJoin(std::string delimiter) : delimiter_(std::move(delimiter)) {}
  Exchange* aggregate(Exchange* old, Exchange& ex) override {
    Value& body = ex.message().body();
    if (!old) {
      if (!body.isString()) {
        std::string text;
        body.appendTo(text);
        body = Value(std::move(text));
      }
      return &ex;
    }
    // Appends in place: the joined text grows as a vector does, no copy per item.
    std::string* joined = old->message().body().mutableString();
    joined->append(delimiter_);
    body.appendTo(*joined);
    return old;
  }

 private:
  std::string delimiter_;
};

class FunctionStrategy final : public AggregationStrategy {
 public:
  explicit FunctionStrategy(std::function<Exchange*(Exchange*, Exchange&)> fn)
      : fn_(std::move(fn)) {}
  Exchange* aggregate(Exchange* old, Exchange& ex) override { return fn_(old, ex); }

 private:
  std::function<Exchange*(Exchange*, Exchange&)> fn_;
};

std::string_view baseName(std::string_view name) {
  if (name.substr(0, 7) == "#class:") name.remove_prefix(7);
  size_t dot = name.rfind('.');
  if (dot != std::string_view::npos) name.remove_prefix(dot + 1);
  return name;
}

}  // namespace

namespace eip {

bool isUseOriginal(const AggregationStrategy* strategy, bool* propagate) noexcept {
  auto* u = dynamic_cast<const UseOriginalStrategy*>(strategy);
  if (u && propagate) *propagate = u->propagate;
  return u != nullptr;
}

Exchange* UseOriginalStrategy::aggregate(Exchange* old, Exchange& ex) {
  // Used directly (outside a split), it keeps the first exchange and its failures.
  if (!old) return &ex;
  if (propagate && ex.failed()) {
    old->mutableErrorForEngine() = std::move(ex.mutableErrorForEngine());
    ex.clearError();
  }
  return old;
}

}  // namespace eip

namespace AggregationStrategies {

std::shared_ptr<AggregationStrategy> useLatest() {
  static const auto instance = std::make_shared<UseLatest>();
  return instance;
}

std::shared_ptr<AggregationStrategy> useOriginal(bool propagate_exception) {
  return std::make_shared<eip::UseOriginalStrategy>(propagate_exception);
}

std::shared_ptr<AggregationStrategy> groupedBody() { return std::make_shared<GroupedBody>(); }

std::shared_ptr<AggregationStrategy> groupedExchange() {
  return std::make_shared<GroupedExchange>();
}

std::shared_ptr<AggregationStrategy> string(std::string delimiter) {
  return std::make_shared<StringJoin>(std::move(delimiter));
}

std::vector<std::string_view> classNames() {
  return {"UseLatestAggregationStrategy", "UseOriginalAggregationStrategy",
          "GroupedBodyAggregationStrategy", "GroupedExchangeAggregationStrategy",
          "StringAggregationStrategy"};
}

std::shared_ptr<AggregationStrategy> byClassName(std::string_view name) {
  std::string_view base = baseName(name);
  if (base == "UseLatestAggregationStrategy") return useLatest();
  if (base == "UseOriginalAggregationStrategy") return useOriginal();
  if (base == "GroupedBodyAggregationStrategy") return groupedBody();
  if (base == "GroupedExchangeAggregationStrategy") return groupedExchange();
  if (base == "StringAggregationStrategy") return string();
  return nullptr;
}

}  // namespace AggregationStrategies

std::shared_ptr<AggregationStrategy> aggregationStrategy(
    std::function<Exchange*(Exchange* oldExchange, Exchange& newExchange)> fn) {
  return std::make_shared<FunctionStrategy>(std::move(fn));
}

}  // namespace dromedary
