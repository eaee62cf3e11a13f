// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/type_converter.h>
#include <dromedary/core/value_stream.h>

namespace dromedary {

namespace {
// A StreamBody converts to a list (the items left) and, through it, to text: registered before
// main, with readRest (which split calls) keeping this file in every program that uses one.
const bool kConvertersRegistered = [] {
  registerTypeName<StreamBody>("Iterator");
  auto& registry = TypeConverterRegistry::global();
  registry.add(typeIdOf<StreamBody>(), typeIdOf<ValueList>(), [](const Value& in, Value& out) {
    const StreamBody* s = in.getIf<StreamBody>();
    if (!s) return false;
    out = Value(s->readRest());
    return true;
  });
  registry.add(typeIdOf<StreamBody>(), typeIdOf<std::string>(), [](const Value& in, Value& out) {
    const StreamBody* s = in.getIf<StreamBody>();
    if (!s) return false;
    out = Value(Value(s->readRest()).toString());
    return true;
  });
  return true;
}();
}  // namespace

ValueList StreamBody::readRest() const {
  (void)kConvertersRegistered;
  ValueList items;
  Value item;
  while (stream_->next(item)) items.push_back(std::move(item));
  return items;
}

}  // namespace dromedary
