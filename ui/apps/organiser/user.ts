// The logged-in organiser: loaded and kept fresh by NavigationAuth (ui/components/navigation-auth.tsx).
export { type CurrentUser, type UserDetails, UserContext, useUser } from '../../components/navigation-auth'
