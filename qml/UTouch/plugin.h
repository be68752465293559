/*
 * UTouch QML module: the plugin of `import UTouch` (version 1.0).  The
 * types (GestureArea, Subscription, Gesture) declare themselves with
 * QML_NAMED_ELEMENT; Qt's qmltyperegistrar turns those declarations into
 * the registration function qml_register_types_UTouch() and the module's
 * UTouch.qmltypes (qml/UTouch/meson.build), and loading the plugin
 * registers them.
 */
#ifndef UTOUCH_QML_PLUGIN_H
#define UTOUCH_QML_PLUGIN_H

#include <QQmlEngineExtensionPlugin>

class UTouchQmlPlugin : public QQmlEngineExtensionPlugin
{
	Q_OBJECT
	Q_PLUGIN_METADATA(IID QQmlEngineExtensionInterface_iid)

public:
	/** The plugin; it keeps the generated registration linked in. */
	explicit UTouchQmlPlugin(QObject *parent = nullptr);
};

#endif
