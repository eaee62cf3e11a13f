// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Camel's beans, as Dromedary runs them: a route's `bean` step and a `bean:` endpoint call
/// a bean's method, which here is a C++ processor bound in the context
/// (Context::bindProcessor) under the bean's name and the method's: `orders.validate`, or the
/// bean's name alone for a bean with one method or none named.

#include <memory>
#include <string_view>

#include <dromedary/core/result.h>
#include <dromedary/spi/processor.h>

namespace dromedary {

class Context;

/// The name a bean reference gives, in each of Camel's forms: `#bean:NAME`, `#NAME` or `NAME`.
/// A `#class:` reference names a class, not a bean, and is returned as written.
std::string_view beanName(std::string_view reference) noexcept;

/// The processor for bean `name` (`#bean:` or `#` before it is dropped) and `method`: bound as
/// `name.method`, else as `name`; without a method, as `name`. A `name` that is a class a bean
/// factory makes (Context::addBeanFactory: Camel's `bean: "org.apache...MaskField"`) is made
/// once, without properties, and bound under that name. Fails naming what was looked for and
/// what is bound.
Result<std::shared_ptr<Processor>> beanProcessor(Context& context, std::string_view name,
                                                 std::string_view method);

}  // namespace dromedary
