import './styles.css'
import { render } from 'preact'
import { App } from './app'
import { initialLanguage, setLanguage } from './i18n'

const lang = initialLanguage()
if (lang !== 'de') void setLanguage(lang)
render(<App />, document.getElementById('app')!)
