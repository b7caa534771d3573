// The logged-in organiser: loaded once per page, refreshed by components that change it.
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'

export interface CurrentUser {
  id: number
  email: string
  userStatus: string
  language: { code: string }
  currentAccount: { id: number; agency: { id: number; displayName: string | null }; userRole: string; firstName: string | null; lastName: string | null } | null
}
export interface UserDetails {
  user: CurrentUser
  features: string[]
}

export const UserContext = createContext<UserDetails | null>(null)
export const useUser = () => useContext(UserContext)!
